#!/bin/sh
# fuzz_export.sh - the headers tests/fuzz_export writes from hostile rows
# compile as C99 (-pedantic) and C++ with -Werror, and a lookup in each
# runs: no database string can add code to a header or break its build.
. "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
CXX=${CXX:-c++}
mkdir -p "$TMP/h"
checks=$((checks + 1))
"$top_builddir/tests/fuzz_export" "$TMP/h" >"$TMP/fuzz.out" 2>&1 || { fail "fuzz_export"; cat "$TMP/fuzz.out" >&2; }
written=0
for h in "$TMP"/h/h*.h; do
	[ -e "$h" ] || continue
	written=$((written + 1))
	b=$(basename "$h")
	printf '#include "%s"\nint main(void) { return conform_best_any(NULL, NULL, NULL, 1024, 0) != NULL && 0; }\n' "$b" >"$TMP/h/use.c"
	checks=$((checks + 1))
	$CC -std=c99 -Wall -Wextra -Werror -pedantic -I"$TMP/h" "$TMP/h/use.c" -o "$TMP/h/use" 2>"$TMP/cc.err" &&
		"$TMP/h/use" ||
		{ fail "$b as C99, or its lookup"; sed 's/^/  | /' "$TMP/cc.err" | head -n 6 >&2; cp "$h" "$top_builddir/tests/fuzz-export-failed-$b"; }
	if command -v "$CXX" >/dev/null 2>&1; then
		checks=$((checks + 1))
		$CXX -x c++ -Wall -Wextra -Werror -I"$TMP/h" "$TMP/h/use.c" -o "$TMP/h/use++" 2>"$TMP/cxx.err" ||
			{ fail "$b as C++"; sed 's/^/  | /' "$TMP/cxx.err" | head -n 6 >&2; }
	fi
done
expect_eq "$([ "$written" -ge 10 ] && echo yes)" yes "at least 10 of the rounds wrote a header ($written)"
echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
