/*
 * tui_devices.c - the devices a table's rows name, and their labels (see
 * tui_devices.h).
 */
#include "tui/tui_devices.h"

#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "db/db.h"

void tui_devices_clear(struct tui_devices *d)
{
	d->count = 0;
}

static void relabel(struct tui_devices *d)
{
	for (size_t i = 0; i < d->count; i++) {
		const char *s = db_device_short(d->v[i].name);
		int shared = 0;
		for (size_t j = 0; j < d->count && !shared; j++)
			shared = j != i && strcmp(db_device_short(d->v[j].name), s) == 0;
		if (shared)
			snprintf(d->v[i].label, sizeof d->v[i].label, "%s #%lld", s, (long long)d->v[i].id);
		else
			text_copy(d->v[i].label, sizeof d->v[i].label, s);
	}
}

void tui_devices_add(struct tui_devices *d, int64_t id, const char *name)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->v[i].id == id)
			return;
	if (d->count == TUI_DEVICES_MAX)
		return;
	d->v[d->count].id = id;
	text_copy(d->v[d->count].name, sizeof d->v[d->count].name, name);
	d->count++;
	relabel(d);
}

const char *tui_devices_label(const struct tui_devices *d, int64_t id, const char *name)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->v[i].id == id)
			return d->v[i].label;
	return db_device_short(name);
}

size_t tui_devices_count(const struct tui_devices *d)
{
	return d->count;
}
