/*
 * tui_best.h - the results pane's best view (b): the database's best
 * configuration per device, variant, type, operator and size (what
 * "conform best" reads), and, on Enter, every configuration measured for the
 * problem under the cursor, ranked, with its interval, its energy and its
 * place on the time/energy Pareto front; e ranks by time, energy or their
 * product (edp) instead, the best of each problem too; keys copy the
 * configuration or the "conform tune" command line that measures it again
 * (tui_command_tune: --kernel FILE for a user kernel).
 */
#ifndef CONFORM_TUI_BEST_H
#define CONFORM_TUI_BEST_H

#include <stddef.h>

#include "common/objective.h"
#include "db/db.h"
#include "tui/tui_devices.h"
#include "tui/tui_table.h"

struct tui_app;

struct tui_best {
	struct tui_app *app;
	struct tui_table table;       /* one row per problem and variant */
	struct db_tuned_row *rows;    /* best_configs; a table row's id indexes here */
	size_t count, cap;
	int detail;                   /* Enter: the configurations of one problem */
	struct db_tuned_row problem;  /* the detail's best row */
	struct tui_table configs;
	struct db_tuned_row *cfg;     /* its configurations, best first by the objective */
	size_t ncfg, capcfg;
	struct tui_devices devices;   /* the rows' devices, labelled for their column */
	enum objective objective;     /* what "best" minimises here (e cycles) */
	char error[256];
};

void tui_best_init(struct tui_best *b, struct tui_app *app);
void tui_best_free(struct tui_best *b);

/* Reads best_configs again; filter as tui_table_filter takes it. */
void tui_best_load(struct tui_best *b, const char *filter);
void tui_best_filter(struct tui_best *b, const char *filter);

void tui_best_draw(struct tui_best *b, const struct tui_rect *r);

/* Ranks by o from now on: the list's best per problem and the detail's
 * order follow objective_rank_cmp (objective.h); by time the list is
 * best_configs itself. */
void tui_best_objective(struct tui_best *b, enum objective o);

/* 1 when a row shown (the list's, or the detail's when open) has an
 * energy figure: e then changes what is shown. */
int tui_best_has_energy(const struct tui_best *b);

/* Enter opens the detail, Esc closes it; y copies the configuration, Y the
 * command line; e the next objective (time, energy, edp); the table's keys
 * otherwise.  Returns 1 when used. */
int tui_best_key(struct tui_best *b, int key);
/* A click or the wheel on the table shown (tui_table_mouse). */
enum tui_hit tui_best_mouse(struct tui_best *b, const struct tui_mouse *m);

/* A configuration without the operator the problem already names. */
void tui_best_config(const char *params, char *buf, size_t len);

#endif
