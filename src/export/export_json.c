/*
 * export_json.c - `conform export --json`: a line per configuration, the
 * tunables as an object of integers rather than a "k=v" string (see
 * export.h).
 */
#include "export/export.h"
#include "report/emit.h"
#include "report/emit_energy.h"

int export_json_write(FILE *f, const struct db_tuned_row *rows, size_t n, enum objective o,
		      char *err, size_t len)
{
	struct export_param p[EXPORT_PARAMS_MAX];
	struct emit_field energy[EMIT_ENERGY_FIELDS];
	char reasons[EMIT_ENERGY_TEXT];
	for (size_t i = 0; i < n; i++) {
		const struct db_tuned_row *r = &rows[i];
		int np = export_params(r, p, err, len);
		if (np < 0)
			return -1;
		struct emit_json j;
		emit_json_init(&j, f);
		emit_json_object(&j, NULL);
		emit_json_string(&j, "device", db_device_label(r->device));
		emit_json_string(&j, "variant", r->variant);
		emit_json_string(&j, "dtype", r->dtype);
		emit_json_string(&j, "op", r->op);
		emit_json_int(&j, "n", r->n);
		emit_json_int(&j, "cols", r->cols);
		emit_json_object(&j, "config");
		for (int k = 0; k < np; k++)
			emit_json_int(&j, p[k].name, p[k].value);
		emit_json_close(&j);
		emit_json_real(&j, "median_us", r->median_ms * 1e3, -1);
		emit_json_real(&j, "gbps", r->gbps, -1);
		emit_json_real(&j, "noise", r->noise, -1);
		emit_json_string(&j, "measured_at", r->measured_at);
		emit_json_string(&j, "git_revision", r->git_revision);
		emit_json_int(&j, "run_id", r->run_id);
		emit_json_int(&j, "result_id", r->result_id);
		if (o != OBJECTIVE_TIME) {
			size_t ne = emit_energy_fields(&r->energy, energy, reasons, sizeof reasons);
			for (size_t k = 0; k < ne; k++)
				emit_json_field(&j, &energy[k]);
			emit_json_string(&j, "objective", objective_name(o));
		}
		emit_json_close(&j);
	}
	return 0;
}
