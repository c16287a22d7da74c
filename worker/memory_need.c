/*
 * memory_need.c - a case's memory, counted and said (see memory_need.h).
 */
#include "worker/memory_need.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static size_t add_saturating(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

void memory_need_init(struct memory_need *m, const char *where)
{
	memset(m, 0, sizeof *m);
	m->where = where;
}

void memory_need_add(struct memory_need *m, const char *name, size_t bytes, size_t overhead)
{
	m->total = add_saturating(add_saturating(m->total, bytes), overhead);
	if (name && m->count < MEMORY_NEED_PARTS) {
		m->name[m->count] = name;
		m->bytes[m->count++] = bytes;
	}
}

void memory_bytes_format(size_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
	double v = (double)bytes / 1000.0;
	int u = 0;

	if (bytes < 1000) {
		snprintf(buf, len, "%zu B", bytes);
		return;
	}
	/* The unit is chosen after rounding: 999.96 kB is "1.0 MB". */
	while (v >= 999.95 && u + 1 < (int)(sizeof units / sizeof units[0])) {
		v /= 1000.0;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, units[u]);
}

void memory_need_skip(const struct memory_need *m, size_t have, const char *note,
		      struct case_result *r)
{
	char msg[RESULT_MESSAGE_MAX], b[32];
	size_t used = 0;

	memory_bytes_format(m->total, b, sizeof b);
	used += (size_t)snprintf(msg, sizeof msg, "needs %s of %s memory", b, m->where);
	for (int k = 0; k < m->count && used < sizeof msg; k++) {
		memory_bytes_format(m->bytes[k], b, sizeof b);
		used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s %s", k ? ", " : " (",
					 m->name[k], b);
	}
	if (m->count && used < sizeof msg)
		used += (size_t)snprintf(msg + used, sizeof msg - used, ")");
	memory_bytes_format(have, b, sizeof b);
	if (used < sizeof msg)
		used += (size_t)snprintf(msg + used, sizeof msg - used, ", the %s has %s %s", m->where, b,
					 strcmp(m->where, "host") == 0 ? "available" : "free");
	if (note && used < sizeof msg)
		snprintf(msg + used, sizeof msg - used, "; %s", note);
	case_result_set(r, OUTCOME_SKIPPED, "%s", msg);
}

int memory_need_check(const struct memory_need *m, size_t have, struct case_result *r)
{
	if (m->total <= have)
		return 0;
	memory_need_skip(m, have, NULL, r);
	return -1;
}

/* The number in dir/name, or SIZE_MAX when it is unreadable or not a
 * number (cgroup v2 writes "max" for no limit). */
static size_t file_bytes(const char *dir, const char *name)
{
	char path[4400];
	unsigned long long v;
	FILE *f;
	int got;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "r")))
		return SIZE_MAX;
	got = fscanf(f, "%llu", &v);
	fclose(f);
	return got == 1 && v < SIZE_MAX ? (size_t)v : SIZE_MAX;
}

/* The value of `key` in dir/memory.stat, or 0. */
static size_t stat_bytes(const char *dir, const char *key)
{
	char path[4400], name[64];
	unsigned long long v;
	size_t found = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/memory.stat", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (strcmp(name, key) == 0)
			found = v < SIZE_MAX ? (size_t)v : SIZE_MAX;
	fclose(f);
	return found;
}

/*
 * What the memory cgroup the worker runs in still allows (its limit less
 * what it uses, its reclaimable page cache not counted), v2 or v1, or
 * SIZE_MAX under no limit.  Under a batch system's limit an allocation
 * past it is not refused by malloc: the process is killed when it touches
 * the pages, a CRASH where a SKIP was due.
 */
static size_t cgroup_available(void)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096], dir[4200];
	size_t best = SIZE_MAX;

	if (!f)
		return SIZE_MAX;
	while (fgets(line, sizeof line, f)) {
		char *controllers = strchr(line, ':'), *path;
		if (!controllers || !(path = strchr(controllers + 1, ':')))
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		const int v2 = strcmp(controllers + 1, "") == 0;
		int v1 = 0;
		for (char *save = NULL, *w = strtok_r(controllers + 1, ",", &save); w; w = strtok_r(NULL, ",", &save))
			v1 |= strcmp(w, "memory") == 0;
		if (!v1 && !v2)
			continue;
		snprintf(dir, sizeof dir, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", path);
		const size_t limit = file_bytes(dir, v2 ? "memory.max" : "memory.limit_in_bytes");
		size_t used = file_bytes(dir, v2 ? "memory.current" : "memory.usage_in_bytes");
		if (limit == SIZE_MAX || used == SIZE_MAX)
			continue;
		const size_t cache = stat_bytes(dir, v2 ? "inactive_file" : "total_inactive_file");
		used = used > cache ? used - cache : 0;
		if ((limit > used ? limit - used : 0) < best)
			best = limit > used ? limit - used : 0;
	}
	fclose(f);
	return best;
}

/* The host's: MemAvailable, else the free pages. */
static size_t host_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb;

	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
				fclose(f);
				return kb > SIZE_MAX / 1024 ? SIZE_MAX : (size_t)kb * 1024;
			}
		fclose(f);
	}
#ifdef _SC_AVPHYS_PAGES
	const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0)
		return (size_t)pages > SIZE_MAX / (size_t)page ? SIZE_MAX : (size_t)pages * (size_t)page;
#endif
	return SIZE_MAX;
}

size_t memory_host_available(void)
{
	const size_t host = host_available(), cgroup = cgroup_available();

	return cgroup < host ? cgroup : host;
}
