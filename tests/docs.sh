#!/bin/sh
# docs.sh - the documentation against the program, so that it cannot drift:
#  (a) every long flag that README.md, docs/conform.1 or docs/*.md names is
#      one that some `conform ... --help` offers, or one of another tool's
#      (the allow-list below, each with its owner);
#  (b) every long option and environment variable a --help names is in the
#      man page;
#  (c) no page states the number of cases in the suites ("1247 cases"):
#      that number changes with every suite edit; say "every case", or let
#      `conform --all --list | wc -l` count.
# tests/manpage.sh checks the man page's SYNOPSIS and EXIT STATUS.
. "$(dirname "$0")/lib.sh"
man1="$top_srcdir/docs/conform.1"

# Every --help conform has: the top level's and each command's.
"$CONFORM" --help >"$TMP/help" 2>&1 || fail "conform --help: exit $?"
for c in run tune bench best history compare export db tui; do
	checks=$((checks + 1))
	"$CONFORM" "$c" --help >>"$TMP/help" 2>&1 || fail "conform $c --help: exit $?"
done
long_flags() { grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*[a-z0-9]' "$@" | sed 's/^[^-]*--/--/'; }
long_flags "$TMP/help" | sort -u >"$TMP/known"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/known")" -ge 40 ] || fail "the --help texts name only $(wc -l <"$TMP/known") long options"

# Flags of other tools that the pages name, a line per tool.  A flag of
# conform's own never belongs here: add it to the command's option table.
allowed='
--with-cuda --without-cuda --with-cuda-arch --enable-asan --enable-werror --prefix
--include-path --expt-relaxed-constexpr
--tool
--clock-control --cache-control --metrics --set
--array --dependency --parsable --wrap
--data-urlencode
--catalog
--out
--shapes --dtypes --no-triton
--rounds --launches --triton
--softmax
'
# 1 configure; 2 NVRTC and nvcc (nvcc's spelling); 3 compute-sanitizer; 4 ncu
# (Nsight Compute); 5 sbatch (Slurm); 6 curl; 7 conform-worker, which
# conform starts (its catalog query), not a command a user types;
# 8 scripts/mutants; 9 scripts/peer-softmax.py; 10 scripts/ncu-softmax;
# 11 scripts/perf-summary.
printf '%s\n' $allowed | sort -u >"$TMP/allowed"
sort -u "$TMP/known" "$TMP/allowed" >"$TMP/ok"

# (a) The pages' flags.  The man page writes '-' as '\-'.  PERFORMANCE.md is
# a journal, but the commands its entries quote are still today's flags, so
# it is held to this rule too (a renamed flag is reworded there).
pages="$top_srcdir/README.md $top_srcdir/docs/*.md"
for f in $pages "$man1"; do
	name=${f#"$top_srcdir/"}
	sed 's/\\-/-/g' "$f" >"$TMP/page"
	for o in $(long_flags "$TMP/page" | sort -u); do
		checks=$((checks + 1))
		grep -qxF -- "$o" "$TMP/ok" ||
			fail "$name names $o, which no conform --help offers ($(grep -nF -- "$o" "$TMP/page" | head -n 1 | cut -c1-100))"
	done
done

# (b) The man page has every option and environment variable a --help names.
in_man() { grep -qF -- "$(printf '%s' "$1" | sed 's/-/\\-/g')" "$man1"; }
for o in $(cat "$TMP/known"); do
	checks=$((checks + 1))
	in_man "$o" || fail "conform.1 lacks $o, which a --help offers"
done
for v in $(grep -oE '\b(NO_COLOR|CONFORM_[A-Z_]+|XDG_[A-Z_]+)\b' "$TMP/help" | sort -u); do
	checks=$((checks + 1))
	grep -qw -- "$v" "$man1" || fail "conform.1 lacks $v, which a --help names"
done

# (c) No count of the suites' cases.  Counts of a few cases (a family's, a
# capture's) stay; the limits a suite may reach (src/suite/suite.h:
# 16384 a line, 32768 a file, 65536 in all) are not counts.  PERFORMANCE.md
# is excluded: its dated entries record what was measured then.
for f in $pages "$man1"; do
	case $f in */PERFORMANCE.md) continue ;; esac
	checks=$((checks + 1))
	grep -nE '\b[0-9][0-9,]{2,} (conformance |GPU )?cases\b' "$f" |
		grep -vE '\b(16384|32768|65536) (conformance |GPU )?cases\b' >"$TMP/counts" &&
		fail "${f#"$top_srcdir/"} states a case count: $(head -n 1 "$TMP/counts" | cut -c1-100)"
done

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
