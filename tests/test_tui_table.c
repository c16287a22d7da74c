/*
 * test_tui_table.c - the table's layout (tui_table.h) without a terminal:
 * the key columns keep their width and stay when the others scroll, a
 * measure takes width from a flexible key down to its minimum, foldable
 * constant columns go first, and what is left off is counted; and the
 * keys: a new sort starts at the top, text sorts without its marks, an
 * empty numeric cell sorts last; a sparse column is there only while a
 * shown row has a value in it.
 */
#include <math.h>
#include <string.h>

#include "tests/test.h"
#include "tui/tui_table.h"

enum { C_NAME, C_N, C_CONFIG, C_TYPE, C_US, C_GBPS, C_MSG, C_COUNT };
static const struct tui_table_col cols[C_COUNT] = {
	[C_NAME] = {.title = "Variant"},
	[C_N] = {.title = "n", .right = 1, .numeric = 1, .key = 1},
	[C_TYPE] = {.title = "Type", .fold = 1},
	[C_CONFIG] = {.title = "Config", .flex = 1, .min = 20, .key = 1},
	[C_US] = {.title = "us", .right = 1, .numeric = 1},
	[C_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	[C_MSG] = {.title = "Message", .flex = 1},
};

/* Three rows whose configurations differ only at their ends. */
static void fill(struct tui_table *t)
{
	static const char *const cfg[] = {
		"block=512,items=2,vec=4,grid=0,evict_first=1,unroll=4",
		"block=512,items=2,vec=4,grid=0,evict_first=1,unroll=8",
		"block=512,items=2,vec=4,grid=0,evict_first=0,unroll=1",
	};
	static const double us[] = {18.43, NAN, 19.10};
	tui_table_begin(t);
	for (int i = 0; i < 3; i++) {
		struct tui_table_row *r = tui_table_add(t);
		r->id = i;
		tui_table_set(r, C_NAME, NAN, 0, "%suser.grid_sum", i == 2 ? "* " : "");
		tui_table_set(r, C_N, 1 << 24, 0, "2^24");
		tui_table_set(r, C_CONFIG, NAN, 0, "%s", cfg[i]);
		tui_table_set(r, C_TYPE, NAN, 0, "f32");
		if (!isnan(us[i]))
			tui_table_set(r, C_US, us[i], 0, "%.2f", us[i]);
		tui_table_set(r, C_GBPS, 3600.0 - i, 0, "%.1f", 3600.0 - i);
		tui_table_set(r, C_MSG, NAN, 0, "a message of some length, longer than the rest");
	}
	tui_table_end(t);
}

static void test_layout_keys(void)
{
	struct tui_table t;
	int w[TUI_TABLE_COLS];
	tui_table_init(&t, cols, C_COUNT);
	fill(&t);
	/* Wide: everything at its content's width, nothing left off. */
	CHECK_INT(tui_table_layout(&t, 300, w), 0);
	CHECK_INT(w[C_NAME], 15);
	CHECK_INT(w[C_CONFIG], 53);
	CHECK_INT(w[C_TYPE], 5);
	/* 80 columns: the keys whole (15 + 4 + 53), the constant type folded,
	 * us fits; GB/s takes its 6 from the configuration, and so does the
	 * message, the last column, its minimum 8. */
	int off = tui_table_layout(&t, 80, w);
	CHECK_INT(w[C_NAME], 15);
	CHECK_INT(w[C_N], 4);
	CHECK_INT(w[C_TYPE], 0);
	CHECK_INT(w[C_US], 5);
	CHECK_INT(w[C_GBPS], 6);
	CHECK_INT(w[C_MSG], 8);
	CHECK_INT(w[C_CONFIG], 80 - 15 - 1 - 4 - 1 - 1 - 5 - 1 - 6 - 1 - 8);
	CHECK_INT(off, 0);
	/* 60: the configuration down to its minimum (20) cannot make room for
	 * the message as well: it is left off, the last column free for the
	 * mark. */
	off = tui_table_layout(&t, 60, w);
	CHECK_INT(w[C_MSG], 0);
	CHECK_INT(w[C_CONFIG], 59 - 15 - 1 - 4 - 1 - 1 - 5 - 1 - 6);
	CHECK_INT(off, 1);
	/* Scrolled right twice: the keys stay, us and GB/s go, and the
	 * message, scrolled to the front, takes its minimum from the
	 * configuration. */
	t.first = 2;
	off = tui_table_layout(&t, 80, w);
	CHECK_INT(w[C_NAME], 15);
	CHECK_INT(w[C_N], 4);
	CHECK_INT(w[C_US], 0);
	CHECK_INT(w[C_GBPS], 0);
	CHECK_INT(w[C_MSG], 8);
	CHECK_INT(w[C_CONFIG], 80 - 15 - 1 - 4 - 1 - 1 - 8);
	CHECK_INT(off, 0);
	/* 46: the keys at the configuration's minimum leave no room for us;
	 * the first column after the keys is drawn all the same, the
	 * configuration below its minimum, so that Right reaches each column
	 * in turn (the last column stays free for the mark). */
	t.first = 0;
	off = tui_table_layout(&t, 46, w);
	CHECK_INT(w[C_US], 5);
	CHECK_INT(w[C_CONFIG], 45 - 15 - 1 - 4 - 1 - 1 - 5);
	CHECK_INT(off, 2);
	t.first = 1;
	tui_table_layout(&t, 46, w);
	CHECK_INT(w[C_US], 0);
	CHECK_INT(w[C_GBPS], 6);
	CHECK_INT(w[C_CONFIG], 45 - 15 - 1 - 4 - 1 - 1 - 6);
	/* Narrower than the keys: the flexible key gives up width first, to
	 * 12, for the keys and the first column after them. */
	t.first = 0;
	tui_table_layout(&t, 40, w);
	CHECK_INT(w[C_NAME], 15);
	CHECK_INT(w[C_N], 4);
	CHECK_INT(w[C_US], 5);
	CHECK_INT(w[C_CONFIG], 39 - 15 - 1 - 4 - 1 - 1 - 5);
	tui_table_free(&t);
}

static void test_sort(void)
{
	struct tui_table t;
	tui_table_init(&t, cols, C_COUNT);
	fill(&t);
	t.cursor = 2;
	/* By the median: the row without one last, the cursor at the top. */
	tui_table_sort(&t, C_US, 0);
	CHECK_INT((int)t.cursor, 0);
	CHECK_INT((int)tui_table_current(&t)->id, 0);
	CHECK_INT((int)t.rows[t.view[2]].id, 1);
	tui_table_sort(&t, C_US, 1);
	CHECK_INT((int)t.rows[t.view[0]].id, 2);
	CHECK_INT((int)t.rows[t.view[2]].id, 1);
	/* By name: the "* " of the best does not put it first (stable order). */
	tui_table_sort(&t, C_NAME, 0);
	CHECK_INT((int)t.rows[t.view[0]].id, 0);
	CHECK_INT((int)t.rows[t.view[2]].id, 2);
	/* Right and Left scroll; with nothing left off, Right says so. */
	t.left_off = 1;
	CHECK(tui_table_key(&t, KEY_RIGHT) == 1 && t.first == 1);
	CHECK(tui_table_key(&t, KEY_LEFT) == 1 && t.first == 0);
	t.left_off = 0;
	tui_table_key(&t, KEY_RIGHT);
	CHECK(t.first == 0 && strstr(t.note, "every column") != NULL);
	/* A row the owner marks failed is where n stops. */
	t.rows[1].failed = 1;
	t.cursor = 0;
	CHECK_INT(tui_table_next_failure(&t, 1), 0);
	CHECK_INT((int)tui_table_current(&t)->id, 1);
	tui_table_free(&t);
}

/* A configuration column: what every row has is said once, the cells keep
 * what tells them apart; a row without items ("(default)") takes no part,
 * and nothing is left out where a row would keep nothing. */
static void test_params(void)
{
	static const struct tui_table_col pcols[2] = {
		{.title = "Variant"},
		{.title = "Config", .flex = 1, .key = 1, .params = 1},
	};
	static const char *const cfg[] = {
		"block=512,items=2,vec=4,grid=0,evict_first=1",
		"(default)",
		"block=512,items=2,vec=4,grid=1,evict_first=1",
		"block=512,items=2,vec=4,grid=0,evict_first=0",
	};
	struct tui_table t;
	char folded[256];
	int w[TUI_TABLE_COLS];
	tui_table_init(&t, pcols, 2);
	tui_table_begin(&t);
	for (int i = 0; i < 4; i++) {
		struct tui_table_row *r = tui_table_add(&t);
		r->id = i;
		tui_table_set(r, 0, NAN, 0, "device.atomic");
		tui_table_set(r, 1, NAN, 0, "%s", cfg[i]);
	}
	tui_table_end(&t);
	CHECK_STR(t.common[1], "block=512,items=2,vec=4");
	tui_table_layout(&t, 80, w);
	CHECK_INT(w[1], 20); /* "grid=0,evict_first=1", not 44 */
	tui_table_folded(&t, folded, sizeof folded);
	CHECK_STR(folded, "Config block=512,items=2,vec=4");
	/* Filtered to one row with items: nothing to say once. */
	tui_table_filter(&t, "grid=1");
	CHECK_STR(t.common[1], "");
	/* Two rows that differ in nothing but one item keep that item. */
	tui_table_filter(&t, "evict_first=1");
	CHECK_STR(t.common[1], "block=512,items=2,vec=4,evict_first=1");
	tui_table_free(&t);
}

/* A text longer than a cell is cut where a character begins, and says so. */
static void test_long_cell(void)
{
	struct tui_table t;
	char text[600] = "";
	const char *mark = tui_term_glyphs()->ellipsis;
	tui_table_init(&t, cols, C_COUNT);
	struct tui_table_row *r = tui_table_add(&t);
	for (int i = 0; i < 200; i++)
		strcat(text, "\xc2\xb5"); /* µ: two bytes */
	tui_table_set(r, C_MSG, NAN, 0, "x%s", text);
	size_t len = strlen(r->cell[C_MSG]), ml = strlen(mark);
	CHECK(len < TUI_CELL_MAX);
	CHECK(len > ml && strcmp(r->cell[C_MSG] + len - ml, mark) == 0);
	/* Before the mark, whole characters: "x" then pairs. */
	CHECK((len - ml - 1) % 2 == 0);
	tui_table_set(r, C_MSG, NAN, 0, "%s", "short");
	CHECK(strcmp(r->cell[C_MSG], "short") == 0);
	tui_table_free(&t);
}

/* A sparse column (energy) is not there while no shown row has a value:
 * no width, not counted as left off, so the table reads as one without
 * it; a value in one shown row brings it back, an empty cell of another
 * row then drawn as missing. */
static void test_sparse(void)
{
	enum { S_NAME, S_US, S_MJ, S_GBPS, S_COUNT };
	static const struct tui_table_col scols[S_COUNT] = {
		[S_NAME] = {.title = "Variant"},
		[S_US] = {.title = "us", .right = 1, .numeric = 1},
		[S_MJ] = {.title = "mJ", .right = 1, .numeric = 1, .sparse = 1},
		[S_GBPS] = {.title = "GB/s", .right = 1, .numeric = 1},
	};
	struct tui_table t;
	int w[TUI_TABLE_COLS], plain[TUI_TABLE_COLS];
	tui_table_init(&t, scols, S_COUNT);
	tui_table_begin(&t);
	for (int i = 0; i < 3; i++) {
		struct tui_table_row *r = tui_table_add(&t);
		r->id = i;
		tui_table_set(r, S_NAME, NAN, 0, "%s", i == 2 ? "device.cub" : "device.atomic");
		tui_table_set(r, S_US, 18.4 + i, 0, "%.2f", 18.4 + i);
		tui_table_set(r, S_GBPS, 3600.0, 0, "3600.0");
	}
	tui_table_end(&t);
	/* No row has energy: the column takes nothing, even where only
	 * part of the table fits (it is not what is left off). */
	CHECK_INT(tui_table_layout(&t, 80, plain), 0);
	CHECK_INT(plain[S_MJ], 0);
	CHECK_INT(plain[S_GBPS], 6);
	CHECK_INT(tui_table_layout(&t, 13 + 1 + 6, w), 1); /* GB/s left off, not mJ as well */
	/* One row with energy: the column is there, as wide as its title
	 * and cells. */
	t.rows[0].key[S_MJ] = 0.00948;
	snprintf(t.rows[0].cell[S_MJ], TUI_CELL_MAX, "9.48");
	tui_table_refresh(&t);
	CHECK_INT(tui_table_layout(&t, 80, w), 0);
	CHECK_INT(w[S_MJ], 4);
	CHECK_INT(tui_table_layout(&t, 13 + 1 + 6, w), 2); /* now two are left off */
	/* Filtered to the rows without it: gone again, the layout as before. */
	tui_table_filter(&t, "!18.40");
	CHECK_INT(t.nview, 2);
	tui_table_layout(&t, 80, w);
	CHECK_INT(w[S_MJ], 0);
	CHECK(memcmp(w, plain, sizeof w) == 0);
	tui_table_free(&t);
}

int main(void)
{
	test_sparse();
	test_params();
	test_long_cell();
	test_layout_keys();
	test_sort();
	return TEST_END();
}
