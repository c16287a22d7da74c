/*
 * device_set.h - the GPUs a command spreads its work over (--devices
 * LIST|all): CUDA ordinals, or every device the machine has, learned from
 * the first worker's greeting.
 */
#ifndef CONFORM_DEVICE_SET_H
#define CONFORM_DEVICE_SET_H

#include <stddef.h>

/* The most devices one run spreads over. */
#define DEVICE_SET_MAX 16
/* The largest ordinal taken (--device's too). */
#define DEVICE_ORDINAL_MAX 1023

struct device_set {
	int all;                   /* "all": every device; list and n unset */
	int n;                     /* ordinals in list, 0: none given */
	int list[DEVICE_SET_MAX];  /* distinct, in the order given */
};

/* "all", or ordinals and ranges, comma separated: "0,2", "0-3".  Returns
 * 0, or -1 with the reason in err (one line, naming what was wrong). */
int device_set_parse(const char *text, struct device_set *ds, char *err, size_t len);

/* ds with "all" resolved against the count of devices a worker reported
 * (count 0: unknown, so device 0 alone), at most DEVICE_SET_MAX. */
void device_set_resolve(struct device_set *ds, int count);

#endif
