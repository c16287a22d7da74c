/*
 * tui_devices.h - the devices a table's rows name, each with a label short
 * enough for a column: the name without the vendor's word ("H200",
 * db_device_short), and the database's device id after it ("H200 #2")
 * when two devices of the table share that name (two H200s of one run
 * over both GPUs would otherwise read the same).
 */
#ifndef CONFORM_TUI_DEVICES_H
#define CONFORM_TUI_DEVICES_H

#include <stddef.h>
#include <stdint.h>

#define TUI_DEVICES_MAX 64

struct tui_devices {
	struct {
		int64_t id;         /* devices.id; 0: the host */
		char name[128];     /* devices.name; "" for the host */
		char label[160];
	} v[TUI_DEVICES_MAX];
	size_t count;           /* devices past TUI_DEVICES_MAX are labelled by name alone */
};

/* Forgets every device. */
void tui_devices_clear(struct tui_devices *d);
/* Adds device id of that name (once, however many rows name it) and
 * labels every device again. */
void tui_devices_add(struct tui_devices *d, int64_t id, const char *name);
/* The label of device id; name's short form when id was not added. */
const char *tui_devices_label(const struct tui_devices *d, int64_t id, const char *name);
/* How many distinct devices were added. */
size_t tui_devices_count(const struct tui_devices *d);

#endif
