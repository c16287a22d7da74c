#!/bin/sh
# layers.sh - the folders are layers (scripts/check-layers): the tree as it
# is passes, and each kind of break, planted in a copy, is refused with
# its file and line: an include against the order, one from the conform
# side into the worker's, a bare name, and a folder on the include path.
. "$(dirname "$0")/lib.sh"
check="$top_srcdir/scripts/check-layers"

expect_exit 0 "the tree's includes follow the layers" -- "$check" "$top_srcdir"

# A copy of the sources the check reads (no build products, no git).
copy="$TMP/tree"
for d in common worker kernels src; do
	(cd "$top_srcdir" && find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \)) |
		while read -r f; do
			mkdir -p "$copy/$(dirname "$f")" && cp "$top_srcdir/$f" "$copy/$f"
		done
done
cp "$top_srcdir/Makefile.am" "$copy/"
expect_exit 0 "the copy passes as the tree does" -- "$check" "$copy"

# plant FILE LINE-TO-ADD: adds the line after the file's first include.
plant() {
	cp "$copy/$1" "$TMP/saved"
	awk -v add="$2" '{ print } !done && /^#include/ { print add; done = 1 }' "$TMP/saved" >"$copy/$1"
}
unplant() { cp "$TMP/saved" "$copy/$1"; }

# The session below the report layer (the run_context once reached up so).
plant src/session/runner.h '#include "report/report.h"'
expect_exit 1 "session including report" -- "$check" "$copy"
expect_grep "$TMP/out" '^src/session/runner\.h:[0-9]+: session may not include "report/report\.h" \(report\)' \
	"the wrong-way include named with its line"
expect_eq "$(wc -l <"$TMP/out")" 1 "one line for one break"
unplant src/session/runner.h

# Side by side: compare and export do not include each other.
plant src/export/export_json.c '#include "compare/compare.h"'
expect_exit 1 "export including compare" -- "$check" "$copy"
expect_grep "$TMP/out" 'export may not include "compare/compare\.h"' "a sibling layer refused"
unplant src/export/export_json.c

# The conform side never reaches into the worker's.
plant src/session/watchdog.h '#include "worker/variant.h"'
expect_exit 1 "session including the worker's variant.h" -- "$check" "$copy"
expect_grep "$TMP/out" 'session may not include "worker/variant\.h" \(worker\)' "the worker's side refused"
unplant src/session/watchdog.h

# Nor the worker into conform's.
plant worker/check.c '#include "db/db.h"'
expect_exit 1 "the worker including db" -- "$check" "$copy"
expect_grep "$TMP/out" 'worker may not include "db/db\.h"' "conform's side refused to the worker"
unplant worker/check.c

# A bare name: found by where the includer sits, not by what it is.
plant src/tune/tune.c '#include "tune_space.h"'
expect_exit 1 "a bare include" -- "$check" "$copy"
expect_grep "$TMP/out" '^src/tune/tune\.c:[0-9]+: "tune_space\.h" is not a folder-qualified path' "a bare name refused"
unplant src/tune/tune.c

# A folder on the include path would let bare names through again.
cp "$copy/Makefile.am" "$TMP/saved"
sed 's|^AM_CPPFLAGS = |AM_CPPFLAGS = -I$(top_srcdir)/src/session |' "$TMP/saved" >"$copy/Makefile.am"
expect_exit 1 "a folder on the include path" -- "$check" "$copy"
expect_grep "$TMP/out" '^Makefile\.am:[0-9]+: -I\$\(top_srcdir\)/src/session puts a folder on the include path' \
	"the include path's folder refused"
cp "$TMP/saved" "$copy/Makefile.am"

# Going down is allowed: cli may include anything below it.
plant src/cli/cmd_db.c '#include "tui/tui_app.h"'
expect_exit 0 "cli including tui (down)" -- "$check" "$copy"
unplant src/cli/cmd_db.c

expect_exit 2 "a bad argument" -- "$check" --bogus
finish
