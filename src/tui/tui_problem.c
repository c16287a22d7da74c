/*
 * tui_problem.c - the problem pane: the element type and the sizes a run
 * uses, instead of those the suites give each case.
 *
 * Left as "each case's own", a run is exactly the checked cases.  With sizes
 * (the presets 2^10 ... 2^30, or a typed list such as "1000, 2^20") each
 * checked flat case runs once per size, named CASE@n=SIZE; segmented cases
 * (cols > 0) keep their shape.  With an element type, a case whose variant
 * lacks that type is left out.  The worker still checks every launch
 * contract, so a size a variant cannot take comes back as ERROR, never as a
 * silent wrong answer.
 *
 * The pane says what r will make of the checked cases in the current mode:
 * cases for conformance, evaluations for a sweep or a tune.  Those come from
 * the run controller's plan (tui_runctl_cases, tui_runctl_plan), the one
 * computation of a run's cases and of a sweep's or tune's variants, sizes
 * and total, which the run itself uses too, so the count shown is the count
 * run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/num.h"
#include "common/text.h"
#include "tui/tui_app.h"
#include "tui/tui_list.h"

enum { ID_HEAD_DTYPE = 1, ID_HEAD_SIZES, ID_DTYPE = 100, ID_SIZES = 200, ID_PRESET = 300 };

struct problem_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_list list;
};

static void rebuild_rows(struct problem_pane *pp)
{
	const struct tui_problem *pr = &pp->app->problem;
	struct tui_list *l = &pp->list;
	struct tui_list_row *row;
	tui_list_begin(l);
	if ((row = tui_list_add(l))) {
		text_copy(row->label, sizeof row->label, "Element type");
		row->label_attr = A_BOLD;
		row->heading = 1;
		row->id = ID_HEAD_DTYPE;
	}
	for (int d = -1; d < DTYPE_COUNT; d++) {
		if (!(row = tui_list_add(l)))
			return;
		row->depth = 1;
		row->check = pr->dtype == d ? TUI_RADIO_ON : TUI_RADIO_OFF;
		text_copy(row->label, sizeof row->label, d < 0 ? "each case's own" : dtype_name((enum dtype)d));
		row->id = ID_DTYPE + 1 + d;
	}
	if ((row = tui_list_add(l))) {
		text_copy(row->label, sizeof row->label, "Sizes (n)");
		row->label_attr = A_BOLD;
		row->heading = 1;
		row->id = ID_HEAD_SIZES;
	}
	static const char *const modes[] = {"each case's own", "the presets below", "a list: "};
	for (int m = 0; m < 3; m++) {
		if (!(row = tui_list_add(l)))
			return;
		row->depth = 1;
		row->check = (int)pr->sizes == m ? TUI_RADIO_ON : TUI_RADIO_OFF;
		snprintf(row->label, sizeof row->label, "%s%s", modes[m],
			 m == TUI_SIZES_LIST ? (pr->list_text[0] ? pr->list_text : "(Enter to type)") : "");
		row->id = ID_SIZES + m;
	}
	for (int k = 0; k < TUI_PRESET_COUNT; k++) {
		if (!(row = tui_list_add(l)))
			return;
		row->depth = 2;
		row->check = pr->presets & (1u << k) ? TUI_CHECK_ON : TUI_CHECK_OFF;
		text_count(row->label, sizeof row->label, TUI_PRESET_SIZE(k));
		snprintf(row->note, sizeof row->note, "%lld", TUI_PRESET_SIZE(k));
		row->id = ID_PRESET + k;
	}
	tui_list_end(l);
}

static void list_typed(struct tui_pane *p, const char *text, int done)
{
	struct problem_pane *pp = (struct problem_pane *)p;
	struct tui_problem *pr = &pp->app->problem;
	if (done < 0)
		return;
	long long sizes[TUI_SIZES_MAX];
	size_t n = 0;
	char buf[TUI_PROMPT_MAX], typed[TUI_PROMPT_MAX];
	text_copy(buf, sizeof buf, text);
	text_copy(typed, sizeof typed, text); /* text is the prompt's own, which reopening rewrites */
	/* An invalid list is given back to the prompt, with the reason, to be
	 * corrected rather than typed again. */
	for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long long v;
		if (num_parse_count(tok, &v) < 0 || v < 1) {
			tui_screen_note(p->screen, "sizes: '%s' is not a count; write counts such as 1000, 4096 or 2^20",
					tok);
			tui_screen_prompt(p->screen, p, "Sizes", typed, 0, list_typed);
			return;
		}
		if (n == TUI_SIZES_MAX) {
			tui_screen_note(p->screen, "sizes: at most %d in a list", TUI_SIZES_MAX);
			tui_screen_prompt(p->screen, p, "Sizes", typed, 0, list_typed);
			return;
		}
		sizes[n++] = v;
	}
	memcpy(pr->list, sizes, n * sizeof sizes[0]);
	pr->nlist = n;
	text_copy(pr->list_text, sizeof pr->list_text, text);
	pr->sizes = n ? TUI_SIZES_LIST : TUI_SIZES_SUITE;
	rebuild_rows(pp);
}

static int problem_key(struct tui_pane *p, int key)
{
	struct problem_pane *pp = (struct problem_pane *)p;
	struct tui_problem *pr = &pp->app->problem;
	if (tui_list_key(&pp->list, key))
		return 1;
	const struct tui_list_row *row = tui_list_current(&pp->list);
	if (!row || !(key == ' ' || TUI_IS_ENTER(key)))
		return 0;
	long id = row->id;
	if (id >= ID_PRESET) {
		pr->presets ^= 1u << (id - ID_PRESET);
		pr->sizes = pr->presets ? TUI_SIZES_PRESETS : TUI_SIZES_SUITE;
	} else if (id == ID_SIZES + TUI_SIZES_LIST) {
		tui_screen_prompt(p->screen, p, "Sizes", pr->list_text, 0, list_typed);
	} else if (id >= ID_SIZES) {
		pr->sizes = (enum tui_sizes)(id - ID_SIZES);
		if (pr->sizes == TUI_SIZES_PRESETS && !pr->presets)
			pr->presets = 1u << 5; /* 2^20, a reasonable start */
	} else if (id >= ID_DTYPE) {
		pr->dtype = (int)(id - ID_DTYPE) - 1;
	}
	rebuild_rows(pp);
	return 1;
}

static void problem_draw(struct tui_pane *p, const struct tui_rect *r)
{
	struct problem_pane *pp = (struct problem_pane *)p;
	int left = 34;
	struct tui_rect lr = {r->y + 1, r->x, r->h - 1, left - 1};
	tui_put(r->y, r->x, left, A_BOLD, "Problem of the next run");
	tui_list_draw(&pp->list, &lr, 1);
	tui_vline(r->y, r->x + left, r->h);

	int x = r->x + left + 2, w = r->w - left - 2, y = r->y;
	struct case_spec *cases;
	size_t n = 0, skipped = 0, checked = tui_app_checked_count(pp->app);
	enum tui_mode mode = pp->app->mode;
	int bottom = r->y + r->h - 6;
	tui_runctl_cases(pp->app, &cases, &n, &skipped);
	tui_putf(y++, x, w, A_BOLD, "What r will run: a %s", tui_mode_name(mode));
	if (mode == TUI_MODE_CONFORMANCE || !n) {
		tui_putf(y++, x, w, tui_term_attr(TUI_NORMAL), "%zu checked -> %zu case%s", checked, n,
			 n == 1 ? "" : "s");
	} else {
		struct tui_runctl_plan plan;
		if (tui_runctl_plan(pp->app, cases, n, &plan) == 0) {
			tui_putf(y++, x, w, tui_term_attr(TUI_NORMAL), "%zu checked -> %llu evaluation%s",
				 checked, (unsigned long long)plan.evaluations,
				 plan.evaluations == 1 ? "" : "s");
			if (mode == TUI_MODE_TUNE)
				tui_putf(y++, x, w, tui_term_attr(TUI_DIM), "budget %llu x %zu variant%s x %zu size%s",
					 (unsigned long long)pp->app->tune_budget, plan.nvariants,
					 plan.nvariants == 1 ? "" : "s", plan.nsizes, plan.nsizes == 1 ? "" : "s");
			else
				tui_putf(y++, x, w, tui_term_attr(TUI_DIM), "%zu variant%s x %zu size%s, %s",
					 plan.nvariants, plan.nvariants == 1 ? "" : "s", plan.nsizes,
					 plan.nsizes == 1 ? "" : "s", dtype_name(plan.o.dtype));
			if (plan.references)
				tui_putf(y++, x, w, tui_term_attr(TUI_DIM), "+ up to %llu reference runs",
					 (unsigned long long)plan.references);
			if (!plan.nvariants)
				tui_putf(y++, x, w, tui_term_attr(TUI_WARN), "no checked %s case has a tuning space",
					 dtype_name(plan.o.dtype));
			y++;
			for (size_t i = 0; i < plan.nvariants && y < bottom; i++)
				tui_put_clip(y++, x, w, tui_term_attr(TUI_DIM), plan.variants[i]->name);
			tui_runctl_plan_free(&plan);
		}
		n = 0; /* the variants are listed, not the cases */
	}
	if (skipped)
		tui_putf(y++, x, w, tui_term_attr(TUI_WARN), "%zu left out: variant lacks the type", skipped);
	if (n)
		y++;
	for (size_t i = 0; i < n && y < bottom; i++)
		tui_put_clip(y++, x, w, tui_term_attr(TUI_DIM), cases[i].name);
	if (n && y >= bottom)
		tui_put(y++, x, w, tui_term_attr(TUI_DIM), "...");
	free(cases);
	static const char *const notes[] = {
		"Sizes other than the suite's run",
		"each flat case once per size, as",
		"CASE@n=SIZE; the worker checks",
		"each variant's launch contract.",
	};
	for (int i = 0; i < 4; i++)
		tui_put(r->y + r->h - 4 + i, x, w, tui_term_attr(TUI_DIM), notes[i]);
}

static const struct tui_hint problem_hints[] = {
	{"Spc", "Choose"}, {"Enter", "Type list"},
};

static size_t problem_hints_fn(struct tui_pane *p, const struct tui_hint **out)
{
	(void)p;
	*out = problem_hints;
	return sizeof problem_hints / sizeof problem_hints[0];
}

static const struct tui_hint problem_help[] = {
	{"", "Problem"},
	{"Up/Down j/k", "move"},
	{"Space/Enter", "choose a type or sizes; tick a preset"},
	{"Enter on list", "type sizes: 1000, 4096, 2^20"},
};

static void problem_destroy(struct tui_pane *p)
{
	struct problem_pane *pp = (struct problem_pane *)p;
	tui_list_free(&pp->list);
	free(pp);
}

static int problem_mouse(struct tui_pane *p, const struct tui_mouse *m)
{
	struct problem_pane *pp = (struct problem_pane *)p;
	return tui_pane_hit(p, tui_list_mouse(&pp->list, m));
}

static const struct tui_pane_class problem_class = {
	.title = "Problem",
	.draw = problem_draw,
	.key = problem_key,
	.mouse = problem_mouse,
	.hints = problem_hints_fn,
	.help = problem_help,
	.nhelp = sizeof problem_help / sizeof problem_help[0],
	.destroy = problem_destroy,
};

struct tui_pane *tui_problem_pane_new(struct tui_app *app)
{
	struct problem_pane *pp = calloc(1, sizeof *pp);
	if (!pp)
		return NULL;
	pp->super.cls = &problem_class;
	pp->app = app;
	app->problem.dtype = -1;
	app->problem.sizes = TUI_SIZES_SUITE;
	tui_list_init(&pp->list, 0);
	rebuild_rows(pp);
	pp->list.cursor = 1;
	return &pp->super;
}
