/*
 * report_json.c - JSON lines on stdout: one object per result, then one
 * {"summary": ...} object.  Field names match the database's columns.
 * The summary ends with the run's identity: its id in the database, its
 * seed, the device ("host" without a GPU; with --devices, "devices" lists
 * them all) and the build, so a CI log line says which stored run and
 * which conform it came from.  A result names the device it ran on: its
 * CUDA ordinal, or "host" without a GPU, the word the summary and the
 * database's lookups use for it.
 * A timed result carries what it spent, named as the database's columns
 * (emit_energy.h: energy_j, power_w, ... throttle_reasons), each null when
 * not measured, never 0; a result that was not timed has none of them.
 * A seed is a string of digits, as the database stores it (emit.h: a
 * JSON number would lose digits above 2^53 in most readers).
 * The summary's known and fixed count the results of cases the baseline
 * (--baseline) lists: a known failure is among the failed too, its status
 * is the observed one and its message starts with the baseline's note.
 */
#include <stdio.h>
#include <string.h>

#include "db/db.h"
#include "report/emit.h"
#include "report/emit_energy.h"
#include "report/report.h"

static FILE *json_out(const struct json_state *st)
{
	return st->out ? st->out : stdout;
}

static int json_begin(void *ctx, const struct run_context *rc, char *err, size_t len)
{
	struct json_state *st = ctx;
	(void)err; (void)len;
	st->rc = rc;
	return 0;
}

static int json_result(void *ctx, const struct result *r, size_t index, size_t total,
		       char *err, size_t len)
{
	(void)index; (void)total; (void)err; (void)len;
	const struct case_spec *c = r->c;
	char reasons[EMIT_ENERGY_TEXT];
	const struct emit_field every[] = {
		EMIT_STR("case", c->name),
		EMIT_STR("variant", c->variant),
		EMIT_STR("dtype", dtype_name(c->dtype)),
		EMIT_INT("n", c->n),
		EMIT_INT("cols", c->cols),
		EMIT_STR("params", c->params),
		EMIT_STR("expect", expect_name(c->expect)),
		EMIT_STR("status", status_name(r->status)),
		EMIT_STR("observed", outcome_name(r->outcome)),
		EMIT_STR("message", r->message),
		r->finding[0] ? EMIT_STR("sanitizer", r->finding) : EMIT_NULL("sanitizer"),
		r->err_norm >= 0 ? EMIT_REAL("err_norm", r->err_norm) : EMIT_NULL("err_norm"),
		EMIT_FIXED("duration_ms", r->duration_s * 1e3, 3),
		EMIT_UINT_EXACT("seed", r->seed),
		r->gpu ? EMIT_INT("device", r->gpu->index) : EMIT_STR("device", db_device_label("")),
	};
	struct emit_field fields[sizeof every / sizeof every[0] + EMIT_ENERGY_FIELDS];
	size_t n = sizeof every / sizeof every[0];
	memcpy(fields, every, sizeof every);
	if (r->timing.samples > 0)
		n += emit_energy_fields(&r->timing.energy, fields + n, reasons, sizeof reasons);
	struct emit_rows rows = {.f = json_out(ctx), .format = EMIT_JSON};
	emit_row(&rows, fields, n);
	return 0;
}

/* A line per failing result that the diagnosis explains, its own key
 * ("diagnosis") so that a reader of results passes it by. */
static int json_amend(void *ctx, const struct result_diagnosis *d, size_t index, char *err, size_t len)
{
	(void)index; (void)err; (void)len;
	struct emit_json j;
	emit_json_init(&j, json_out(ctx));
	emit_json_object(&j, NULL);
	emit_json_object(&j, "diagnosis");
	emit_json_string(&j, "case", d->c->name);
	if (d->pattern)
		emit_json_string(&j, "pattern", d->pattern);
	else
		emit_json_null(&j, "pattern");
	if (d->shrunk) {
		emit_json_string(&j, "shrunk", d->shrunk);
		emit_json_int(&j, "n", d->n);
		emit_json_int(&j, "cols", d->cols);
		if (d->pass_n >= 0) {
			emit_json_int(&j, "pass_n", d->pass_n);
			emit_json_int(&j, "pass_cols", d->pass_cols);
		} else {
			emit_json_null(&j, "pass_n");
			emit_json_null(&j, "pass_cols");
		}
		emit_json_int(&j, "probes", d->probes);
		emit_json_bool(&j, "cut_short", d->cut_short);
		emit_json_string(&j, "repro", d->repro ? d->repro : "");
	} else {
		emit_json_null(&j, "shrunk");
	}
	emit_json_close(&j);
	emit_json_close(&j);
	return 0;
}

static int json_end(void *ctx, const struct run_summary *s, char *err, size_t len)
{
	const struct json_state *st = ctx;
	const struct run_context *rc = st->rc;
	(void)err; (void)len;
	struct emit_json j;
	emit_json_init(&j, json_out(st));
	emit_json_object(&j, NULL);
	emit_json_object(&j, "summary");
	emit_json_int(&j, "passed", s->tally[TALLY_PASSED]);
	emit_json_int(&j, "failed", s->tally[TALLY_FAILED]);
	emit_json_int(&j, "skipped", s->tally[TALLY_SKIPPED]);
	emit_json_int(&j, "known", s->known);   /* of failed: listed in --baseline */
	emit_json_int(&j, "fixed", s->fixed);   /* listed in --baseline, and passed */
	emit_json_bool(&j, "interrupted", s->interrupted);
	emit_json_real(&j, "wall_s", s->wall_s, 3);
	emit_json_object(&j, "statuses");
	for (int i = 0; i < STATUS_COUNT; i++)
		emit_json_int(&j, status_name((enum status)i), s->counts[i]);
	emit_json_close(&j);
	if (rc->run_id > 0)
		emit_json_int(&j, "run_id", rc->run_id);
	else
		emit_json_null(&j, "run_id");
	emit_json_uint_exact(&j, "seed", rc->seed);
	emit_json_string(&j, "device", report_device(rc));
	/* A run over several GPUs names each ("device" is the first's). */
	if (report_spread(rc)) {
		emit_json_array(&j, "devices");
		for (int k = 0; k < rc->ndevices; k++) {
			emit_json_object(&j, NULL);
			emit_json_int(&j, "index", rc->devices[k].index);
			emit_json_string(&j, "name", rc->devices[k].name);
			emit_json_string(&j, "uuid", rc->devices[k].uuid);
			emit_json_close(&j);
		}
		emit_json_close(&j);
	}
	emit_json_object(&j, "build");
	emit_json_string(&j, "conform_version", rc->version);
	emit_json_string(&j, "git_revision", rc->git_revision);
	emit_json_close(&j);
	emit_json_close(&j);
	emit_json_close(&j);
	return 0;
}

void json_sink(struct report_sink *s, struct json_state *st)
{
	memset(s, 0, sizeof *s);
	s->begin = json_begin;
	s->result = json_result;
	s->amend = json_amend;
	s->end = json_end;
	s->ctx = st;
}
