/*
 * energy.c - energy per launch from a burst's NVML readings (energy.h),
 * and the names of the clock event reasons.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/energy.h"

/* A change of the counter: somewhere in (lo, hi], the times of the
 * readings before and at it. */
struct tick {
	double lo, hi;
	double mj;
};

/* The counter's ticks with lo at or after start_s and hi at or before
 * end_s (end_s < 0: any), in time order, at most max. */
static size_t ticks_between(const struct energy_poll *p, size_t n, double start_s, double end_s,
			    struct tick *out, size_t max)
{
	size_t count = 0;
	const struct energy_poll *prev = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!(p[i].counter_mj >= 0)) /* not read (NAN too) */
			continue;
		if (prev && p[i].counter_mj != prev->counter_mj && prev->t_s >= start_s &&
		    (end_s < 0 || p[i].t_s <= end_s)) {
			if (out && count < max)
				out[count] = (struct tick){prev->t_s, p[i].t_s, p[i].counter_mj};
			count++;
		}
		prev = &p[i];
	}
	return count;
}

int energy_ticks_inside(const struct energy_poll *polls, size_t n, double start_s)
{
	return (int)ticks_between(polls, n, start_s, -1, NULL, 0);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The median of the clocks read in [start_s, end_s]; 0 when none was. */
static int clock_median(const struct energy_poll *p, size_t n, double start_s, double end_s,
			int mem)
{
	int *v = malloc((n ? n : 1) * sizeof *v);
	size_t k = 0;
	int m = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++) {
		int mhz = mem ? p[i].mem_mhz : p[i].sm_mhz;
		if (mhz > 0 && p[i].t_s >= start_s && p[i].t_s <= end_s)
			v[k++] = mhz;
	}
	if (k) {
		qsort(v, k, sizeof *v, cmp_int);
		m = v[k / 2];
	}
	free(v);
	return m;
}

/* The time-weighted mean of the power readings over [a, b]: each reading
 * holds until the next.  0 when there is none. */
static double power_mean(const struct energy_poll *p, size_t n, double a, double b)
{
	double sum = 0, covered = 0, last_w = -1, last_t = a;

	for (size_t i = 0; i <= n; i++) {
		double t = i < n ? p[i].t_s : b;
		if (t > b)
			t = b;
		if (last_w >= 0 && t > last_t) {
			sum += last_w * (t - last_t);
			covered += t - last_t;
		}
		if (t > last_t)
			last_t = t;
		if (i < n && p[i].power_w >= 0)
			last_w = p[i].power_w;
		if (t >= b)
			break;
	}
	return covered > 0 ? sum / covered : 0;
}

int energy_estimate(const struct energy_burst *b, struct energy_stats *out)
{
	struct tick *ticks;
	size_t nt;
	int measured = 0;

	memset(out, 0, sizeof *out);
	out->burst_s = b->gpu_s;
	out->launches = b->launches;
	out->sm_mhz = clock_median(b->polls, b->n, b->start_s, b->end_s, 0);
	out->mem_mhz = clock_median(b->polls, b->n, b->start_s, b->end_s, 1);
	for (size_t i = 0; i < b->n; i++)
		if (b->polls[i].reasons_read && b->polls[i].t_s >= b->start_s && b->polls[i].t_s <= b->end_s) {
			out->reasons_known = 1;
			out->reasons |= b->polls[i].reasons;
		}
	nt = ticks_between(b->polls, b->n, b->start_s, b->end_s, NULL, 0);
	if (nt < 3 || b->launches < 1 || !(b->gpu_s > 0))
		return 0;
	ticks = malloc(nt * sizeof *ticks);
	if (!ticks)
		return 0;
	ticks_between(b->polls, b->n, b->start_s, b->end_s, ticks, nt);
	/* The first tick inside may carry energy from before the burst (the
	 * counter may lag its readings by up to a period): the window starts
	 * at the second. */
	const struct tick *a = &ticks[1], *z = &ticks[nt - 1];
	double ta = (a->lo + a->hi) / 2, tz = (z->lo + z->hi) / 2;
	double window = tz - ta, mj = z->mj - a->mj;
	/* A counter that went back inside the window (reset with the driver)
	 * counted from another origin: its difference is no energy. */
	for (size_t k = 2; k < nt; k++)
		if (ticks[k].mj < ticks[k - 1].mj)
			mj = 0;
	if (window > 0 && mj > 0) {
		out->window_s = window;
		out->watts = mj / 1e3 / window;
		out->joules = out->watts * b->gpu_s / (double)b->launches;
		/* Each end of the window is known to half the gap between the
		 * readings around it; the counter counts whole mJ. */
		out->uncertainty = ((a->hi - a->lo) / 2 + (z->hi - z->lo) / 2) / window + 1.0 / mj;
		out->watts_sampled = power_mean(b->polls, b->n, ta, tz);
		if (b->launch_s > 0) {
			out->busy = b->launches * b->launch_s / b->gpu_s;
			if (out->busy > 1)
				out->busy = 1; /* back to back, faster than the samples' median */
			if (out->busy < ENERGY_BUSY)
				out->uncertainty += 1 - out->busy;
		}
		measured = 1;
	}
	free(ticks);
	return measured;
}

void energy_trace_write(FILE *f, const struct energy_burst *b)
{
	fprintf(f, "burst %.9f %.9f %.9g %ld %.9g\n", b->start_s, b->end_s, b->gpu_s, b->launches,
		b->launch_s);
	for (size_t i = 0; i < b->n; i++) {
		const struct energy_poll *p = &b->polls[i];
		fprintf(f, "poll %.9f %.0f %.3f %d %d ", p->t_s, p->counter_mj, p->power_w, p->sm_mhz,
			p->mem_mhz);
		if (p->reasons_read)
			fprintf(f, "%llu\n", p->reasons);
		else
			fprintf(f, "-\n");
	}
	fprintf(f, "end\n");
}

int energy_trace_read(FILE *f, struct energy_poll **polls, size_t *cap, struct energy_burst *b)
{
	char line[256], reasons[32];
	int started = 0;

	memset(b, 0, sizeof *b);
	while (fgets(line, sizeof line, f)) {
		struct energy_poll p = {0};
		if (!started) {
			if (line[0] == '\n' || line[0] == '#')
				continue;
			int got = sscanf(line, "burst %lf %lf %lf %ld %lf", &b->start_s, &b->end_s,
					 &b->gpu_s, &b->launches, &b->launch_s);
			if (got != 4 && got != 5)
				return -1;
			started = 1;
			continue;
		}
		if (strcmp(line, "end\n") == 0) {
			b->polls = *polls;
			return 1;
		}
		if (sscanf(line, "poll %lf %lf %lf %d %d %31s", &p.t_s, &p.counter_mj, &p.power_w,
			   &p.sm_mhz, &p.mem_mhz, reasons) != 6)
			return -1;
		if (strcmp(reasons, "-") != 0) {
			char *e;
			p.reasons = strtoull(reasons, &e, 10);
			if (*e)
				return -1;
			p.reasons_read = 1;
		}
		if (b->n == *cap) {
			size_t grown = *cap ? 2 * *cap : 256;
			struct energy_poll *q = realloc(*polls, grown * sizeof *q);
			if (!q)
				return -1;
			*polls = q;
			*cap = grown;
		}
		(*polls)[b->n++] = p;
	}
	return started ? -1 : 0;
}

int energy_measured(const struct energy_stats *e)
{
	return e->joules > 0;
}

/* v when it lies in [lo, hi], else 0 (NAN too). */
static double plausible(double v, double lo, double hi)
{
	return v >= lo && v <= hi ? v : 0;
}

void energy_clear_implausible(struct energy_stats *e)
{
	e->joules = plausible(e->joules, 1e-6, 1e6);
	e->watts = plausible(e->watts, 1, 1e6);
	e->watts_sampled = plausible(e->watts_sampled, 1, 1e6);
	e->uncertainty = plausible(e->uncertainty, 0, 100);
	if (!energy_measured(e))
		e->uncertainty = e->window_s = 0;
	if (e->sm_mhz > 100000)
		e->sm_mhz = 0;
	if (e->mem_mhz > 100000)
		e->mem_mhz = 0;
}

/* NVML's nvmlClocksEventReason* bits, in bit order. */
static const char *const reason_names[] = {
	"gpu_idle",        /* 0x1 */
	"app_clocks",      /* 0x2: applications clocks setting */
	"sw_power_cap",    /* 0x4 */
	"hw_slowdown",     /* 0x8 */
	"sync_boost",      /* 0x10 */
	"sw_thermal",      /* 0x20 */
	"hw_thermal",      /* 0x40 */
	"hw_power_brake",  /* 0x80 */
	"display_clocks",  /* 0x100 */
};
#define NREASONS (sizeof reason_names / sizeof reason_names[0])

char *energy_reasons_text(unsigned long long reasons, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (!reasons) {
		snprintf(buf, len, "none");
		return buf;
	}
	for (unsigned bit = 0; bit < 64; bit++) {
		unsigned long long m = 1ull << bit;
		char word[24];
		if (!(reasons & m))
			continue;
		if (bit < NREASONS)
			snprintf(word, sizeof word, "%s", reason_names[bit]);
		else
			snprintf(word, sizeof word, "0x%llx", m);
		int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", word);
		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
	return buf;
}

int energy_reasons_parse(const char *text, unsigned long long *out)
{
	*out = 0;
	if (strcmp(text, "none") == 0)
		return 0;
	if (!*text)
		return -1;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		unsigned bit;
		for (bit = 0; bit < NREASONS; bit++)
			if (strlen(reason_names[bit]) == n && strncmp(p, reason_names[bit], n) == 0)
				break;
		if (bit < NREASONS) {
			*out |= 1ull << bit;
		} else {
			char word[24], *e;
			unsigned long long v;
			if (n == 0 || n >= sizeof word)
				return -1;
			memcpy(word, p, n);
			word[n] = '\0';
			v = strtoull(word, &e, 16);
			if (strncmp(word, "0x", 2) != 0 || *e || v == 0 || (v & (v - 1)))
				return -1;
			*out |= v;
		}
		if (!end)
			break;
		p = end + 1;
		if (!*p)
			return -1;
	}
	return 0;
}
