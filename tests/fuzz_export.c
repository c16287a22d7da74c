/*
 * fuzz_export.c - the header exporter fed hostile rows: strings of any
 * byte but NUL, weighted to what breaks C (a comment's end, a newline, a
 * backslash, a quote, ??/ trigraphs, #), and numbers C cannot spell
 * (INT64_MIN and INT64_MAX, infinities, NaN), with tunables of any text,
 * exported by each objective (a ranked header writes each entry's energy,
 * a number of any kind, in a comment).
 *
 *   fuzz_export [DIR] writes DIR/h0.h, DIR/h1.h, ... one header a round
 *                     (FUZZ_EXPORT_ROUNDS, 40 by default; FUZZ_EXPORT_SEED);
 *                     without DIR (as make check runs every test program)
 *                     into a temporary directory it removes
 *
 * Each round either is refused with a message (a tunable that is not an
 * integer, two variants of one C name) or writes a header; tests/fuzz_export.sh
 * compiles every header written as C99 and C++ with -Werror and runs a
 * lookup.  The program itself checks that a refusal says why and that a
 * header holds no byte outside printable ASCII, tab and newline.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/rng.h"
#include "db/db.h"
#include "export/export.h"
#include "tests/test.h"

/* A hostile string of at most len - 1 bytes into buf. */
static void hostile_text(struct rng *g, char *buf, size_t len)
{
	static const char *const bits[] = {"*/", "/*", "\n", "\\", "\"", "?\?/", "?\?=", "#", "'", "?", "\r", "\t",
					   "%s", "device.", "f32", "sum"};
	size_t used = 0, parts = (size_t)rng_range(g, 0, 6);

	buf[0] = '\0';
	for (size_t k = 0; k < parts && used + 4 < len; k++) {
		if (rng_range(g, 0, 2) == 0) {
			buf[used++] = (char)rng_range(g, 1, 255);
		} else {
			const char *b = bits[rng_range(g, 0, (int64_t)(sizeof bits / sizeof bits[0]) - 1)];
			size_t bl = strlen(b);
			if (used + bl + 1 >= len)
				break;
			memcpy(buf + used, b, bl);
			used += bl;
		}
		buf[used] = '\0';
	}
}

static int64_t hostile_int(struct rng *g)
{
	switch (rng_range(g, 0, 5)) {
	case 0: return INT64_MIN;
	case 1: return INT64_MAX;
	case 2: return 0;
	case 3: return -1;
	default: return rng_range(g, 1, (int64_t)1 << 40);
	}
}

static double hostile_double(struct rng *g)
{
	switch (rng_range(g, 0, 5)) {
	case 0: return INFINITY;
	case 1: return -INFINITY;
	case 2: return NAN;
	case 3: return 1e308;
	default: return rng_uniform(g, 0, 1000);
	}
}

int main(int argc, char **argv)
{
	const char *e = getenv("FUZZ_EXPORT_ROUNDS"), *s = getenv("FUZZ_EXPORT_SEED");
	const int rounds = e ? atoi(e) : 40;
	const uint64_t seed = s ? strtoull(s, NULL, 10) : 20261128;
	struct rng g;
	int written = 0;
	char tmpdir[] = "/tmp/fuzz_export.XXXXXX";
	const char *dir = argc == 2 ? argv[1] : mkdtemp(tmpdir);

	if (argc > 2 || !dir) {
		fprintf(stderr, "usage: fuzz_export [DIR]\n");
		return 2;
	}
	rng_init(&g, seed);
	for (int round = 0; round < rounds; round++) {
		struct db_tuned_row rows[6];
		const size_t n = (size_t)rng_range(&g, 1, 6);
		char path[4096], err[512] = "";
		memset(rows, 0, sizeof rows);
		for (size_t i = 0; i < n; i++) {
			struct db_tuned_row *r = &rows[i];
			r->device_id = 1;
			hostile_text(&g, r->device, sizeof r->device);
			hostile_text(&g, r->variant, sizeof r->variant);
			hostile_text(&g, r->dtype, sizeof r->dtype);
			hostile_text(&g, r->op, sizeof r->op);
			r->n = hostile_int(&g);
			r->cols = rng_range(&g, 0, 1) ? 0 : hostile_int(&g);
			if (rng_range(&g, 0, 3) == 0)
				hostile_text(&g, r->params, sizeof r->params);
			else
				snprintf(r->params, sizeof r->params, "block=%lld,op=sum,items=%lld",
					 (long long)hostile_int(&g), (long long)hostile_int(&g));
			r->median_ms = hostile_double(&g);
			r->gbps = hostile_double(&g);
			hostile_text(&g, r->measured_at, sizeof r->measured_at);
			hostile_text(&g, r->git_revision, sizeof r->git_revision);
			/* The energy a header exported by energy or edp
			 * writes in a comment beside each entry. */
			r->energy.joules = hostile_double(&g);
			r->energy.watts = hostile_double(&g);
			r->energy.uncertainty = hostile_double(&g);
		}
		char name[32];
		snprintf(name, sizeof name, "h%d.h", written);
		snprintf(path, sizeof path, "%s/%s", dir, name);
		FILE *f = fopen(path, "w");
		if (!f) {
			perror(path);
			return 2;
		}
		/* Every third round by each objective: ranked tables too. */
		const struct export_meta m = {"*/ ?\?/ pattern", "db */ path", "0.0", "rev", "now", name,
					      (enum objective)(round % 3)};
		int rc = export_header_write(f, rows, n, &m, err, sizeof err);
		fclose(f);
		if (rc < 0) {
			CHECK(err[0] != '\0'); /* a refusal says why */
			remove(path);
			continue;
		}
		/* Nothing but printable ASCII, tab and newline. */
		f = fopen(path, "rb");
		int c, bad = 0;
		while (f && (c = fgetc(f)) != EOF)
			bad |= !(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f));
		if (f)
			fclose(f);
		CHECK(!bad);
		written++;
		if (argc < 2)
			remove(path);
	}
	if (argc < 2)
		rmdir(dir);
	printf("%d rounds, %d headers written; %d checks, %d failed\n", rounds, written, test_checks,
	       test_failures);
	return test_failures ? 1 : 0;
}
