/*
 * sanitizer_report.c - reading a compute-sanitizer log (see sanitizer_report.h).
 *
 * A log is a run of reports.  Each opens with a head line at the margin
 * ("Invalid __global__ write of size 4 bytes") and goes on in indented
 * detail lines ("at ...", "by thread ...", "Address ..."), up to a blank
 * line, the next head, or a summary.  The parser reads one line at a time
 * into a bounded buffer and hands heads and details to two tables of rules.
 * A report is kept when its head is one the tools are known to write, or
 * when an unknown head turns out to have a kernel or a thread in its
 * details: a kind of error that this file does not list yet is still
 * reported, while the tool's notes ("Target application returned an
 * error") are not.  Any other line is skipped.
 *
 * Code locations are read in every form the tool has printed them, old
 * ones too since a site's toolkit may be old (sanitizer_location.c), and so
 * is racecheck's hazard report ("Potential WAW hazard detected at
 * __shared__ 0x0 in block (0,0,0)").
 */
#include "common/sanitizer_report.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/sanitizer_location.h"
#include "common/text.h"

/* Every line compute-sanitizer writes starts with this, then one space. */
#define PREFIX "========="
#define PREFIX_LEN 9

/* The bytes of a line read.  A longer line keeps its start and its end,
 * joined by "...": a template kernel's name can run to kilobytes, and its
 * end is where the source line, the offset and the hazard count are. */
#define LINE_CAP 4096

static const char *const tool_names[SANITIZER_TOOL_COUNT] = {
	[SANITIZER_NONE] = "none",
	[SANITIZER_MEMCHECK] = "memcheck",
	[SANITIZER_RACECHECK] = "racecheck",
	[SANITIZER_SYNCCHECK] = "synccheck",
	[SANITIZER_INITCHECK] = "initcheck",
};

const char *sanitizer_tool_name(enum sanitizer_tool t)
{
	return (unsigned)t < SANITIZER_TOOL_COUNT ? tool_names[t] : "?";
}

int sanitizer_tool_parse(const char *word, enum sanitizer_tool *out)
{
	int i = word ? text_index(tool_names, SANITIZER_TOOL_COUNT, word) : -1;
	if (i < 0)
		return -1;
	*out = (enum sanitizer_tool)i;
	return 0;
}

/* ---- small text helpers ------------------------------------------------- */

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Appends src to the string in dst (len bytes), cut to fit. */
static void field_append(char *dst, size_t len, const char *src)
{
	size_t n = strlen(dst);
	if (n + 1 < len)
		text_copy(dst + n, len - n, src);
}

/* a + b, held at INT_MAX: a log of any length cannot wrap a count. */
static int add_held(int a, int b)
{
	return a > INT_MAX - b ? INT_MAX : a + b;
}

/* Reads a count as the tool writes it ("3", "1,024") at s into *n (held at
 * INT_MAX).  Returns the end of it, or NULL when s starts no number. */
static const char *count_read(const char *s, int *n)
{
	if (!is_digit(*s))
		return NULL;
	long long v = 0;
	for (; is_digit(*s) || (*s == ',' && is_digit(s[1])); s++)
		if (*s != ',')
			v = v > INT_MAX ? v : v * 10 + (*s - '0');
	*n = v > INT_MAX ? INT_MAX : (int)v;
	return s;
}

/* Copies a thread or block index "(32, 0, 0)" at s as "(32,0,0)": the
 * hazard report spaces it, the others do not, and callers compare it. */
static void tuple_take(char *dst, size_t len, const char *s)
{
	size_t w = 0;
	if (*s != '(') {
		size_t n = strcspn(s, " ");
		for (size_t i = 0; i < n && w + 1 < len; i++)
			dst[w++] = s[i];
	} else {
		for (; *s && w + 1 < len; s++) {
			if (*s != ' ')
				dst[w++] = *s;
			if (*s == ')')
				break;
		}
	}
	if (len > 0)
		dst[w] = '\0';
}

/* One side of a race, "Read access at missing_sync_race.cu:62": the source
 * line, or without line info the function and offset. */
static void race_side_say(char *dst, size_t len, const char *access, const struct sanitizer_location *loc)
{
	char at[160];
	if (loc->source[0])
		text_copy(at, sizeof at, loc->source);
	else if (loc->func[0] && loc->pc[0])
		snprintf(at, sizeof at, "%.100s+%.30s", loc->func, loc->pc);
	else
		text_copy(at, sizeof at, loc->func[0] ? loc->func : loc->pc);
	snprintf(dst, len, "%.40s access at %.140s", access, at);
}

/* ---- the parse ---------------------------------------------------------- */

enum block {
	BLOCK_NONE,     /* between reports: details belong to nothing */
	BLOCK_FINDING,  /* a report the tools are known to write */
	BLOCK_MAYBE,    /* an unknown head: a finding if its details locate it */
};

struct parse {
	struct sanitizer_report *rep;
	struct sanitizer_finding cur;   /* the report being read */
	enum block block;
	int race_sides;                 /* accesses named so far in a race */
	int counted;                    /* findings closed, kept or not */
	int counted_warnings;
	int program_hits;
	char program_hit[256];          /* the first one */
	int summaries;                  /* summary lines read */
	int summary_total;
	int summary_warnings;
	int prefixed;                   /* lines that are compute-sanitizer's */
	int tool_errors;
	char foreign[200];              /* the first other non-blank line */
};

static void block_open(struct parse *p, const char *kind, int warning, enum block b)
{
	memset(&p->cur, 0, sizeof p->cur);
	text_copy(p->cur.kind, sizeof p->cur.kind, kind);
	text_trim_right(p->cur.kind);
	p->cur.warning = warning;
	p->block = b;
	p->race_sides = 0;
}

static void block_close(struct parse *p)
{
	struct sanitizer_report *rep = p->rep;
	int located = p->cur.kernel[0] || p->cur.thread[0];
	if (p->block == BLOCK_FINDING || (p->block == BLOCK_MAYBE && located)) {
		p->counted = add_held(p->counted, 1);
		p->counted_warnings = add_held(p->counted_warnings, p->cur.warning);
		if (rep->nfindings < SANITIZER_FINDINGS_MAX)
			rep->f[rep->nfindings++] = p->cur;
	}
	p->block = BLOCK_NONE;
}

/* Cuts racecheck's " [8 hazards]" off the end of s, returning the count
 * (0 when s has none). */
static int hazards_cut(char *s)
{
	text_trim_right(s);
	char *open = strrchr(s, '[');
	int n = 0;
	if (!open || open == s || open[-1] != ' ')
		return 0;
	const char *end = count_read(open + 1, &n);
	if (!end || !(strcmp(end, " hazards]") == 0 || strcmp(end, " hazard]") == 0))
		return 0;
	open[-1] = '\0';
	return n;
}

/* ---- head lines: a report's first line, or one of the tool's own -------- */

static void head_ignore(struct parse *p, char *s, char *rest, int warning)
{
	(void)p, (void)s, (void)rest, (void)warning;
}

/* "ERROR SUMMARY: 2 errors".  Not "ERROR SUMMARY: 33 errors were not
 * printed. Use --print-limit ...", which follows the total when the tool
 * stopped printing: it counts the same errors again. */
static void head_error_summary(struct parse *p, char *s, char *rest, int warning)
{
	(void)s, (void)warning;
	int n;
	const char *end = count_read(rest + strspn(rest, " "), &n);
	if (!end || !(strcmp(end, " error") == 0 || strcmp(end, " errors") == 0))
		return;
	p->summaries++;
	p->summary_total = add_held(p->summary_total, n);
}

/* "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)". */
static void head_race_summary(struct parse *p, char *s, char *rest, int warning)
{
	(void)s, (void)warning;
	int shown, errors, warnings;
	const char *end = count_read(rest + strspn(rest, " "), &shown);
	if (!end)
		return;
	p->summaries++;
	const char *open = strchr(end, '(');
	const char *e = open ? count_read(open + 1, &errors) : NULL;
	const char *comma = e ? strchr(e, ',') : NULL;
	const char *w = comma ? count_read(comma + 1 + strspn(comma + 1, " "), &warnings) : NULL;
	if (w) {
		p->summary_total = add_held(p->summary_total, add_held(errors, warnings));
		p->summary_warnings = add_held(p->summary_warnings, warnings);
	} else {
		p->summary_total = add_held(p->summary_total, shown);
	}
}

/* "Program hit cudaErrorLaunchFailure (error 719) due to ... on CUDA API
 * call to cudaStreamSynchronize." - what a kernel's fault did to the host,
 * so the fault is the finding; this one is kept only if there is none. */
static void head_program_hit(struct parse *p, char *s, char *rest, int warning)
{
	(void)rest, (void)warning;
	if (p->program_hits++ == 0)
		text_copy(p->program_hit, sizeof p->program_hit, s);
}

static void head_finding(struct parse *p, char *s, char *rest, int warning)
{
	(void)rest;
	block_open(p, s, warning, BLOCK_FINDING);
}

/* "Race reported between Read access at f+0xb00 in f.cu:62 [8 hazards]"
 * (the other side follows on "and Write access at ..." lines). */
static void head_race(struct parse *p, char *s, char *rest, int warning)
{
	int hazards = hazards_cut(s);
	char *at = strstr(s, " access at ");
	if (!at) {
		block_open(p, s, warning, BLOCK_FINDING);
		p->cur.hazards = hazards;
		return;
	}
	*at = '\0';
	char access[48];
	text_copy(access, sizeof access, rest);
	char kind[160];
	snprintf(kind, sizeof kind, "Race reported between %.40s access", access);
	block_open(p, kind, warning, BLOCK_FINDING);
	p->cur.hazards = hazards;

	struct sanitizer_location loc;
	sanitizer_location_read(at + strlen(" access at "), &loc);
	text_copy(p->cur.kernel, sizeof p->cur.kernel, loc.func);
	text_copy(p->cur.source, sizeof p->cur.source, loc.source);
	race_side_say(p->cur.where, sizeof p->cur.where, access, &loc);
	p->race_sides = 1;
}

/* racecheck --racecheck-report hazard: "Potential WAW hazard detected at
 * __shared__ 0x0 in block (0,0,0) :"; the threads follow, one a line. */
static void head_hazard(struct parse *p, char *s, char *rest, int warning)
{
	(void)rest;
	char *detected = strstr(s, " detected at ");
	if (!detected) {
		block_open(p, s, warning, BLOCK_MAYBE);
		return;
	}
	*detected = '\0';
	block_open(p, s, warning, BLOCK_FINDING);
	char *where = detected + strlen(" detected at ");
	char *in_block = strstr(where, " in block ");
	if (in_block) {
		tuple_take(p->cur.block, sizeof p->cur.block, in_block + strlen(" in block "));
		*in_block = '\0';
	}
	text_copy(p->cur.where, sizeof p->cur.where, where);
	text_trim_right(p->cur.where);
}

static const struct head_rule {
	const char *prefix;
	void (*take)(struct parse *p, char *s, char *rest, int warning);
} head_rules[] = {
	{ "COMPUTE-SANITIZER", head_ignore },
	{ "ERROR SUMMARY:", head_error_summary },
	{ "RACECHECK SUMMARY:", head_race_summary },
	{ "LEAK SUMMARY:", head_ignore },
	{ "Target application returned an error", head_ignore },
	{ "Program hit ", head_program_hit },
	{ "Cuda API error detected", head_program_hit },
	{ "Race reported between ", head_race },
	{ "Potential ", head_hazard },
	/* Findings that may come without a kernel or a thread to place
	 * them (a leak, a host access), and the usual ones, named so that
	 * none depends on its details to be kept. */
	{ "Invalid ", head_finding },
	{ "Uninitialized ", head_finding },
	{ "Barrier error", head_finding },
	{ "Leaked ", head_finding },
	{ "Host API memory access error", head_finding },
	{ "Malloc/Free error", head_finding },
	{ "Illegal ", head_finding },
	{ "Misaligned ", head_finding },
	{ "Out-of-range ", head_finding },
	{ "Warp ", head_finding },
};

/* Drops a severity in front of s ("Error: ", "Warning: ", and the hazard
 * report's "ERROR: " and "WARN:(Warp Level Programming) "), saying which. */
static char *severity_cut(char *s, int *error, int *warning)
{
	static const struct {
		const char *word;
		int warning;
	} words[] = { { "Error:", 0 }, { "ERROR:", 0 }, { "Warning:", 1 }, { "WARNING:", 1 }, { "WARN:", 1 } };
	*error = *warning = 0;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (!starts_with(s, words[i].word))
			continue;
		s += strlen(words[i].word);
		if (*s == '(') {
			char *close = strchr(s, ')');
			s = close ? close + 1 : s;
		}
		*warning = words[i].warning;
		*error = !words[i].warning;
		return s + strspn(s, " ");
	}
	return s;
}

static void head_line(struct parse *p, char *s)
{
	block_close(p);
	int error, warning;
	s = severity_cut(s, &error, &warning);
	for (size_t i = 0; i < sizeof head_rules / sizeof head_rules[0]; i++) {
		size_t n = strlen(head_rules[i].prefix);
		if (strncmp(s, head_rules[i].prefix, n) == 0) {
			head_rules[i].take(p, s, s + n, warning);
			return;
		}
	}
	if (error) {
		/* "Error: Target application terminated before first
		 * instrumented API call": the tool's, not the program's. */
		if (p->tool_errors++ == 0)
			text_copy(p->rep->tool_error, sizeof p->rep->tool_error, s);
		return;
	}
	block_open(p, s, warning, BLOCK_MAYBE);
}

/* ---- detail lines: the indented lines of a report ----------------------- */

/* "at writes_past_out+0x70 in /dir/writes_past_out.cu:41": the first one
 * places the report (a Device Frame line after it does not). */
static void detail_at(struct parse *p, char *line, char *rest)
{
	(void)line;
	if (p->cur.kernel[0] || p->cur.source[0])
		return;
	struct sanitizer_location loc;
	sanitizer_location_read(rest, &loc);
	text_copy(p->cur.kernel, sizeof p->cur.kernel, loc.func);
	text_copy(p->cur.source, sizeof p->cur.source, loc.source);
}

/* "by thread (0,0,0) in block (0,0,0)" */
static void detail_thread(struct parse *p, char *line, char *rest)
{
	(void)line;
	tuple_take(p->cur.thread, sizeof p->cur.thread, rest);
	char *in_block = strstr(rest, " in block ");
	if (in_block)
		tuple_take(p->cur.block, sizeof p->cur.block, in_block + strlen(" in block "));
}

/* "Address 0x7f2a4c000204 is out of bounds", "Access to 0x... is out of
 * bounds", "Uninitialized access at 0x... on access by cudaMemcpy source":
 * the whole line, which starts a sentence in the one-line message. */
static void detail_address(struct parse *p, char *line, char *rest)
{
	(void)rest;
	if (p->cur.where[0])
		return;
	text_copy(p->cur.where, sizeof p->cur.where, line);
	if (p->cur.where[0] >= 'A' && p->cur.where[0] <= 'Z')
		p->cur.where[0] = (char)(p->cur.where[0] - 'A' + 'a');
}

/* "and is 1 bytes after the nearest allocation at 0x... of size 4 bytes" */
static void detail_and_is(struct parse *p, char *line, char *rest)
{
	(void)line;
	if (!p->cur.where[0])
		return;
	field_append(p->cur.where, sizeof p->cur.where, ", ");
	field_append(p->cur.where, sizeof p->cur.where, rest);
}

/* A race's other side: "and Write access at f+0xd90 in f.cu:78 [8 hazards]".
 * A race with several is one finding; their hazards add up. */
static void detail_race_and(struct parse *p, char *line, char *rest)
{
	(void)line;
	if (p->race_sides == 0)
		return;
	p->cur.hazards = add_held(p->cur.hazards, hazards_cut(rest));
	char *at = strstr(rest, " access at ");
	if (!at || p->race_sides++ > 1)
		return;
	*at = '\0';
	char side[200], kind_end[64];
	struct sanitizer_location loc;
	sanitizer_location_read(at + strlen(" access at "), &loc);
	race_side_say(side, sizeof side, rest, &loc);
	field_append(p->cur.where, sizeof p->cur.where, " and ");
	field_append(p->cur.where, sizeof p->cur.where, side);
	snprintf(kind_end, sizeof kind_end, " and %.40s access", rest);
	field_append(p->cur.kind, sizeof p->cur.kind, kind_end);
	if (!p->cur.source[0])
		text_copy(p->cur.source, sizeof p->cur.source, loc.source);
}

/* The hazard report's "Write Thread (31, 0, 0) at 0x1ab0 in f.cu:146:f". */
static void detail_hazard_thread(struct parse *p, char *line, char *rest)
{
	(void)line;
	if (p->cur.thread[0])
		return;
	tuple_take(p->cur.thread, sizeof p->cur.thread, rest);
	char *at = strstr(rest, " at ");
	if (!at)
		return;
	struct sanitizer_location loc;
	sanitizer_location_read(at + strlen(" at "), &loc);
	text_copy(p->cur.kernel, sizeof p->cur.kernel, loc.func);
	text_copy(p->cur.source, sizeof p->cur.source, loc.source);
}

/* First match wins: "and is " before "and ".  Backtraces ("Saved host
 * backtrace", "Host Frame:", "Device Frame:", their "in lib.so" lines)
 * match nothing and are skipped. */
static const struct detail_rule {
	const char *prefix;
	void (*take)(struct parse *p, char *line, char *rest);
} detail_rules[] = {
	{ "at ", detail_at },
	{ "by thread ", detail_thread },
	{ "Address ", detail_address },
	{ "Access to ", detail_address },
	{ "Uninitialized access at ", detail_address },
	{ "and is ", detail_and_is },
	{ "and ", detail_race_and },
	{ "Read Thread ", detail_hazard_thread },
	{ "Write Thread ", detail_hazard_thread },
};

static void detail_line(struct parse *p, char *s)
{
	if (p->block == BLOCK_NONE)
		return;
	for (size_t i = 0; i < sizeof detail_rules / sizeof detail_rules[0]; i++) {
		size_t n = strlen(detail_rules[i].prefix);
		if (strncmp(s, detail_rules[i].prefix, n) == 0) {
			detail_rules[i].take(p, s, s + n);
			return;
		}
	}
}

/* ---- lines -------------------------------------------------------------- */

static char printable(char c)
{
	return c == '\t' ? ' ' : c >= ' ' && c <= '~' ? c : '?';
}

/* Copies the n bytes of a line into line (LINE_CAP bytes) as printable
 * ASCII, without its '\r' (a log that went through Windows), the middle of
 * a line too long left out. */
static void line_take(char *line, const char *text, size_t n)
{
	if (n > 0 && text[n - 1] == '\r')
		n--;
	size_t head = n, tail = 0, w = 0;
	if (n > LINE_CAP - 1) {
		head = (LINE_CAP - 4) / 2;
		tail = LINE_CAP - 4 - head;
	}
	for (size_t i = 0; i < head; i++)
		line[w++] = printable(text[i]);
	if (tail > 0) {
		memcpy(line + w, "...", 3);
		w += 3;
		for (size_t i = n - tail; i < n; i++)
			line[w++] = printable(text[i]);
	}
	line[w] = '\0';
}

static void line_read(struct parse *p, char *line)
{
	if (strncmp(line, PREFIX, PREFIX_LEN) != 0) {
		/* Not the tool's: the program's own output, when the log went
		 * to a terminal, or what ran in the tool's place. */
		char *s = line + strspn(line, " ");
		text_trim_right(s);
		if (*s && !p->foreign[0])
			text_copy(p->foreign, sizeof p->foreign, s);
		return;
	}
	p->prefixed = add_held(p->prefixed, 1);
	char *s = line + PREFIX_LEN;
	if (*s == ' ')
		s++;
	size_t indent = strspn(s, " ");
	s += indent;
	text_trim_right(s);
	if (!*s)
		block_close(p);
	else if (indent == 0)
		head_line(p, s);
	else
		detail_line(p, s);
}

/* The totals and the verdict on the tool, once every line is read. */
static void parse_finish(struct parse *p)
{
	struct sanitizer_report *rep = p->rep;
	if (rep->nfindings == 0 && p->program_hits > 0) {
		text_copy(rep->f[0].kind, sizeof rep->f[0].kind, p->program_hit);
		rep->nfindings = 1;
	}
	if (p->summaries > 0) {
		/* The tool's count is the truth: a report it did not count
		 * (a note this file took for one) is dropped. */
		if (p->summary_total == 0) {
			memset(rep->f, 0, sizeof rep->f);
			rep->nfindings = 0;
		}
		rep->findings_total = p->summary_total > rep->nfindings ? p->summary_total : rep->nfindings;
		rep->warnings = p->summary_warnings;
	} else {
		rep->findings_total = add_held(p->counted, p->program_hits);
		if (rep->findings_total < rep->nfindings)
			rep->findings_total = rep->nfindings;
		rep->warnings = p->counted_warnings;
	}

	if (p->tool_errors > 0) {
		rep->tool_failed = 1;
	} else if (p->prefixed == 0) {
		rep->tool_failed = 1;
		if (p->foreign[0])
			snprintf(rep->tool_error, sizeof rep->tool_error, "not a compute-sanitizer log: %s",
				 p->foreign);
		else
			text_copy(rep->tool_error, sizeof rep->tool_error, "the log is empty");
	} else if (p->summaries == 0) {
		rep->tool_failed = 1;
		text_copy(rep->tool_error, sizeof rep->tool_error,
			  "the log ends before compute-sanitizer's summary");
	}
}

int sanitizer_report_parse(const char *text, size_t len, struct sanitizer_report *rep)
{
	memset(rep, 0, sizeof *rep);
	struct parse p;
	memset(&p, 0, sizeof p);
	p.rep = rep;
	char line[LINE_CAP];
	if (!text)
		len = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		line_take(line, text + at, n);
		line_read(&p, line);
		at += n + (nl != NULL);
	}
	block_close(&p);
	parse_finish(&p);
	return rep->tool_failed ? -1 : 0;
}

/* ---- the one-line summary ----------------------------------------------- */

struct out {
	char *s;
	size_t len, n;
};

/* Appends to o, cut at its end: o->s stays terminated. */
__attribute__((format(printf, 2, 3))) static void out_add(struct out *o, const char *fmt, ...)
{
	if (o->n + 1 >= o->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(o->s + o->n, o->len - o->n, fmt, ap);
	va_end(ap);
	if (w < 0)
		o->s[o->n] = '\0';
	else
		o->n += (size_t)w < o->len - o->n ? (size_t)w : o->len - o->n - 1;
}

/* A field of a report the caller may have filled by hand: read no further
 * than its array, terminated or not. */
#define FIELD(a) (int)strnlen((a), sizeof(a)), (a)

static void finding_say(struct out *o, const struct sanitizer_finding *f)
{
	out_add(o, "%.*s", FIELD(f->kind));
	if (f->warning)
		out_add(o, " (a warning)");
	if (f->kernel[0])
		out_add(o, " in %.*s", FIELD(f->kernel));
	if (f->thread[0] || f->block[0])
		out_add(o, " at");
	if (f->thread[0])
		out_add(o, " thread %.*s", FIELD(f->thread));
	if (f->block[0])
		out_add(o, " block %.*s", FIELD(f->block));
	if (f->where[0])
		out_add(o, ": %.*s", FIELD(f->where));
	/* A race's where names its lines already. */
	char source[sizeof f->source + 1], where[sizeof f->where + 1];
	snprintf(source, sizeof source, "%.*s", FIELD(f->source));
	snprintf(where, sizeof where, "%.*s", FIELD(f->where));
	if (source[0] && !strstr(where, source))
		out_add(o, " (%s)", source);
	if (f->hazards > 0)
		out_add(o, ", %d hazard%s", f->hazards, f->hazards == 1 ? "" : "s");
}

void sanitizer_report_summary(const struct sanitizer_report *rep, enum sanitizer_tool t, char *out,
			      size_t len)
{
	if (len == 0)
		return;
	struct out o = { out, len, 0 };
	out[0] = '\0';
	out_add(&o, "%s: ", t == SANITIZER_NONE || (unsigned)t >= SANITIZER_TOOL_COUNT ?
				   "compute-sanitizer" : sanitizer_tool_name(t));
	int shown = rep->nfindings < 0 ? 0 : rep->nfindings;
	int total = rep->findings_total > shown ? rep->findings_total : shown;
	if (shown > 0) {
		finding_say(&o, &rep->f[0]);
		int more = total - 1;
		if (more > 0)
			out_add(&o, "; %d more %s%s", more, more == 1 ? "error" : "errors",
				rep->warnings > 0 ? " or warnings" : "");
	} else if (total > 0) {
		out_add(&o, "%d %s, none described in the log", total, total == 1 ? "error" : "errors");
	} else if (!rep->tool_failed) {
		out_add(&o, "no errors");
	}
	if (rep->tool_failed)
		out_add(&o, "%sthe tool failed: %.*s", total > 0 ? "; " : "", FIELD(rep->tool_error));
	for (char *c = out; *c; c++)
		*c = printable(*c);
}
