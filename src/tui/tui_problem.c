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
 * tui_tune_plan_make, the one computation of a sweep's or tune's variants,
 * sizes and total, which the run itself uses too, so the count shown is the
 * count run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dtype.h"
#include "common/num.h"
#include "common/params.h"
#include "common/text.h"
#include "tui/tui_app.h"
#include "tui/tui_list.h"
#include "tune/tune_space.h"

enum { ID_HEAD_DTYPE = 1, ID_HEAD_SIZES, ID_DTYPE = 100, ID_SIZES = 200, ID_PRESET = 300 };

struct problem_pane {
	struct tui_pane super;
	struct tui_app *app;
	struct tui_list list;
};

static long long preset_size(int k)
{
	return 1LL << (TUI_PRESET_FIRST + k * TUI_PRESET_STEP);
}

/* "2^20" for powers of two, else the decimal. */
static void format_count(char *buf, size_t len, long long n)
{
	if (n > 0 && (n & (n - 1)) == 0) {
		int k = 0;
		while ((1LL << k) != n)
			k++;
		snprintf(buf, len, "2^%d", k);
	} else {
		snprintf(buf, len, "%lld", n);
	}
}

static int variant_has_dtype(const struct tui_app *app, const char *variant, enum dtype d)
{
	const struct catalog_entry *e = catalog_lookup(&app->cat, variant);
	if (!e)
		return 1; /* not built: it will be skipped with the reason anyway */
	const char *want = dtype_name(d);
	size_t n = strlen(want);
	for (const char *p = e->dtypes; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, want, n) == 0)
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The sizes a run uses; 0 when each case keeps its own. */
static size_t run_sizes(const struct tui_problem *pr, long long *sizes)
{
	size_t n = 0;
	if (pr->sizes == TUI_SIZES_PRESETS) {
		for (int k = 0; k < TUI_PRESET_COUNT; k++)
			if (pr->presets & (1u << k))
				sizes[n++] = preset_size(k);
	} else if (pr->sizes == TUI_SIZES_LIST) {
		for (size_t i = 0; i < pr->nlist; i++)
			sizes[n++] = pr->list[i];
	}
	return n;
}

int tui_problem_cases(const struct tui_app *app, struct case_spec **out, size_t *count,
		      size_t *skipped)
{
	const struct tui_problem *pr = &app->problem;
	long long sizes[TUI_SIZES_MAX > TUI_PRESET_COUNT ? TUI_SIZES_MAX : TUI_PRESET_COUNT];
	size_t nsizes = run_sizes(pr, sizes);
	size_t checked = tui_app_checked_count(app), cap = checked * (nsizes ? nsizes : 1);
	*out = NULL;
	*count = *skipped = 0;
	if (!cap)
		return 0;
	struct case_spec *cases = calloc(cap, sizeof *cases);
	if (!cases)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < app->suite.count; i++) {
		if (!app->checked[i])
			continue;
		const struct case_spec *c = &app->suite.cases[i];
		if (pr->dtype >= 0 && !variant_has_dtype(app, c->variant, (enum dtype)pr->dtype)) {
			*skipped += nsizes && !c->cols ? nsizes : 1;
			continue;
		}
		size_t per = nsizes && !c->cols ? nsizes : 1;
		for (size_t k = 0; k < per; k++) {
			struct case_spec *x = &cases[n++];
			*x = *c;
			char suffix[64] = "", size[32];
			if (pr->dtype >= 0) {
				x->dtype = (enum dtype)pr->dtype;
				if (x->dtype != c->dtype)
					snprintf(suffix, sizeof suffix, "%s", dtype_name(x->dtype));
			}
			if (nsizes && !c->cols) {
				x->n = sizes[k];
				format_count(size, sizeof size, x->n);
				size_t len = strlen(suffix);
				snprintf(suffix + len, sizeof suffix - len, "%sn=%s", len ? "," : "", size);
			}
			if (suffix[0]) {
				char name[CASE_NAME_MAX + 64];
				snprintf(name, sizeof name, "%s@%s", c->name, suffix);
				text_copy(x->name, sizeof x->name, name);
			}
		}
	}
	*out = cases;
	*count = n;
	return 0;
}

/* The tunable variants of the cases of type d, each once. */
static size_t plan_variants(const struct tui_app *app, const struct case_spec *cases, size_t n,
			    enum dtype d, const struct catalog_entry **out)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const struct catalog_entry *e = catalog_lookup(&app->cat, cases[i].variant);
		if (!e || !e->space[0] || tune_is_reference(&app->cat, e->name) || cases[i].dtype != d)
			continue;
		size_t k = 0;
		while (k < count && out[k] != e)
			k++;
		if (k == count)
			out[count++] = e;
	}
	return count;
}

/* The distinct sizes of the cases of type d, in order. */
static size_t plan_sizes(const struct case_spec *cases, size_t n, enum dtype d, int64_t *out)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		if (cases[i].dtype != d)
			continue;
		while (k < count && out[k] != cases[i].n)
			k++;
		if (k == count)
			out[count++] = cases[i].n;
	}
	return count;
}

static int same_name(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The evaluations of one search of each variant, and the references of
 * their families (counted once per family) at one size. */
static void plan_count(const struct tui_tune_plan *plan, const struct catalog *cat,
		       uint64_t *evaluations, uint64_t *references)
{
	struct tune_family seen[TUNE_FAMILIES_MAX];
	size_t nseen = 0;
	struct tune_space *space = malloc(sizeof *space);
	char err[256];
	*evaluations = *references = 0;
	for (size_t i = 0; i < plan->nvariants; i++) {
		const struct catalog_entry *e = plan->variants[i];
		struct tune_family f;
		if (tune_family_of(cat, e->name, &f)) {
			size_t k = 0;
			while (k < nseen && !(same_name(seen[k].copy, f.copy) && same_name(seen[k].baseline, f.baseline) &&
					      same_name(seen[k].baseline_segmented, f.baseline_segmented)))
				k++;
			if (k == nseen && nseen < TUNE_FAMILIES_MAX) {
				seen[nseen++] = f;
				*references += (f.copy != NULL) +
					       ((plan->o.cols ? f.baseline_segmented : f.baseline) != NULL);
			}
		}
		if (!space || tune_space_parse(space, e->space, err, sizeof err) < 0)
			continue;
		struct tune_search_config cfg = {.budget = plan->o.budget,
						 .time_limit_s = plan->o.time_limit_s, .seed = plan->o.seed};
		*evaluations += tune_search_budget(plan->o.strategy, space, &cfg);
	}
	free(space);
}

int tui_tune_plan_make(const struct tui_app *app, const struct case_spec *cases, size_t n,
		       struct tui_tune_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	if (!n)
		return 0;
	enum dtype d = app->problem.dtype >= 0 ? (enum dtype)app->problem.dtype : cases[0].dtype;
	int tune = app->mode == TUI_MODE_TUNE;
	plan->o = (struct tune_options){
		.dtype = d, .op = OP_SUM, .cols = cases[0].cols,
		.strategy = tune_strategy_find(tune ? "anneal" : "exhaustive"),
		.budget = tune ? app->tune_budget : 0,
		.seed = app->seed_given ? app->seed : 1,
		.timing = app->timing,
	};
	plan->variants = calloc(n, sizeof *plan->variants);
	plan->sizes = calloc(n, sizeof *plan->sizes);
	if (!plan->variants || !plan->sizes) {
		tui_tune_plan_free(plan);
		return -1;
	}
	plan->nvariants = plan_variants(app, cases, n, d, plan->variants);
	plan->nsizes = plan_sizes(cases, n, d, plan->sizes);
	uint64_t per_size, refs;
	plan_count(plan, &app->cat, &per_size, &refs);
	plan->evaluations = per_size * plan->nsizes;
	plan->references = refs * plan->nsizes;
	return 0;
}

void tui_tune_plan_free(struct tui_tune_plan *plan)
{
	free(plan->variants);
	free(plan->sizes);
	memset(plan, 0, sizeof *plan);
}

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
		format_count(row->label, sizeof row->label, preset_size(k));
		snprintf(row->note, sizeof row->note, "%lld", preset_size(k));
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
	tui_problem_cases(pp->app, &cases, &n, &skipped);
	tui_putf(y++, x, w, A_BOLD, "What r will run: a %s", tui_mode_name(mode));
	if (mode == TUI_MODE_CONFORMANCE || !n) {
		tui_putf(y++, x, w, tui_term_attr(TUI_NORMAL), "%zu checked -> %zu case%s", checked, n,
			 n == 1 ? "" : "s");
	} else {
		struct tui_tune_plan plan;
		if (tui_tune_plan_make(pp->app, cases, n, &plan) == 0) {
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
			tui_tune_plan_free(&plan);
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

static const struct tui_pane_class problem_class = {
	.title = "Problem",
	.draw = problem_draw,
	.key = problem_key,
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
