#!/bin/sh
# export.sh - conform export on the H100 tuning database (tests/data):
# the header compiles clean as C99 and C++ under -Wall -Wextra -Werror, and
# its lookups answer as `conform best` does, at the tuned sizes and between
# them (the nearest in log2, the larger on a tie), for the winner across
# device.* and for one variant's table; --json holds each configuration as
# an object of integers; bad input is one line and exit 2, and a failed
# export leaves the header it would have replaced as it was.
. "$(dirname "$0")/lib.sh"
SQLITE3=${SQLITE3:-sqlite3}
CC=${CC:-cc}
CXX=${CXX:-c++}
db="$TMP/h100.db"
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | "$SQLITE3" "$db" || { echo "cannot load the database"; exit 99; }
h100="NVIDIA H100 80GB HBM3"

expect_exit 0 "export --header" -- "$CONFORM" export 'device.*' --header "$TMP/best.h" --db "$db"
expect_grep "$TMP/best.h" '^#ifndef CONFORM_EXPORT_BEST_H$' "the guard from the file's name"
expect_grep "$TMP/best.h" 'conform_best_device_atomic_f32_sum\(const char \*device' "a table per variant"

# ask WHICH DEVICE N: the header's answer, "variant n params" or "none".
# WHICH is "any" (conform_best_any) or "atomic" (device.atomic's table).
cat >"$TMP/ask.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "best.h"

int main(int argc, char **argv)
{
	const struct conform_config *c;
	const char *device = strcmp(argv[2], "-") == 0 ? NULL : argv[2];
	long long n = atoll(argv[3]);
	int i;
	if (argc != 4)
		return 2;
	if (strcmp(argv[1], "any") == 0)
		c = conform_best_any(device, "f32", "sum", n, 0);
	else
		c = conform_best_device_atomic_f32_sum(device, n, 0);
	if (!c) {
		printf("none\n");
		return 0;
	}
	printf("%s %lld ", c->variant, c->n);
	for (i = 0; i < c->nparams; i++)
		printf("%s%s=%lld", i ? "," : "", c->params[i].name, c->params[i].value);
	printf("\n");
	return 0;
}
EOF
checks=$((checks + 1))
if ! $CC -std=c99 -Wall -Wextra -Werror -pedantic -I"$TMP" "$TMP/ask.c" -o "$TMP/ask" 2>"$TMP/cc.err"; then
	fail "the header as C99 with -Wall -Wextra -Werror -pedantic"
	sed 's/^/  | /' "$TMP/cc.err" | head -n 20 >&2
	exit 1
fi
# The same lookups optimised, and under valgrind where it is installed:
# conform_best_any once passed a table's count in the call that set it
# (`t(&count), count`), an unsequenced read that valgrind reported and
# some compilers answered differently at -O2.  The header never pairs the
# two in one call.
checks=$((checks + 1))
$CC -std=c99 -O2 -Wall -Wextra -Werror -I"$TMP" "$TMP/ask.c" -o "$TMP/ask-O2" 2>"$TMP/cc.err" ||
	fail "the header as C99 at -O2"
checks=$((checks + 1))
if grep -q '(&count), count' "$TMP/best.h"; then
	fail "a table's count read in the call that sets it"
fi
if command -v valgrind >/dev/null 2>&1; then
	for n in 1024 16777216 50000000; do
		checks=$((checks + 1))
		valgrind -q --error-exitcode=9 "$TMP/ask" any "$h100" "$n" >/dev/null 2>"$TMP/vg.err" ||
			{ fail "conform_best_any under valgrind at n=$n"; sed 's/^/  | /' "$TMP/vg.err" | head -n 8 >&2; }
	done
fi
if command -v "$CXX" >/dev/null 2>&1; then
	checks=$((checks + 1))
	$CXX -x c++ -Wall -Wextra -Werror -I"$TMP" "$TMP/ask.c" -o "$TMP/ask++" 2>"$TMP/cxx.err" ||
		{ fail "the header as C++"; sed 's/^/  | /' "$TMP/cxx.err" | head -n 20 >&2; }
fi

# What conform best says, as "variant n params" (params without op=).
best_says() {
	"$CONFORM" best "$1" --n "$2" --dtype f32 --op sum --gpu "$h100" --json --db "$db" |
		sed -n 's/.*"variant":"\([^"]*\)".*"n":\([0-9]*\),.*"params":"\([^"]*\)".*/\1 \2 \3/p' |
		sed 's/,\{0,1\}op=sum//'
}

# The bench's sizes, between them, a tie (2^26: two octaves from 2^24 and
# from 2^28), below the first and above the last.
for n in 1 1024 1048576 4194304 16777216 33554432 67108864 134217728 268435456 \
	536870912 1073741824 2147483648 3000000 50000000; do
	checks=$((checks + 1))
	want=$(best_says 'device.*' "$n")
	got=$("$TMP/ask" any "$h100" "$n")
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "conform_best_any at n=$n: '$got', conform best: '$want'"
	checks=$((checks + 1))
	got=$("$TMP/ask-O2" any "$h100" "$n")
	[ "$got" = "$want" ] || fail "conform_best_any at -O2, n=$n: '$got', conform best: '$want'"
	checks=$((checks + 1))
	want=$(best_says device.atomic "$n")
	got=$("$TMP/ask" atomic - "$n")
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "device.atomic's lookup at n=$n: '$got', conform best: '$want'"
done
# The bench winner at 2^24, and 2^25 answered from 2^24, spelled out: of
# evict_first=0 (median 23.712 µs, interval up to 23.872) and =1 (23.776,
# up to 23.840), the lower upper bound.
expect_eq "$("$TMP/ask" any "$h100" 16777216)" \
	"device.atomic 16777216 block=1024,items=2,vec=4,grid=0,evict_first=1" "the winner at 2^24"
expect_eq "$("$TMP/ask" any "$h100" 33554432)" \
	"device.atomic 16777216 block=1024,items=2,vec=4,grid=0,evict_first=1" "2^25 from the nearest size"
expect_eq "$("$TMP/ask" any "no such GPU" 16777216)" "none" "another device: no answer"
expect_eq "$("$TMP/ask" any - 0)" "none" "n = 0: no answer"

# --json: a line per stored best configuration, each one's config an object.
expect_exit 0 "export --json" -- "$CONFORM" export 'device.*' --json --db "$db"
cp "$TMP/out" "$TMP/export.jsonl"
rows=$("$SQLITE3" "$db" "select count(*) from best_configs where variant glob 'device.*' and op is not null and op <> ''")
expect_eq "$(wc -l <"$TMP/export.jsonl" | tr -d ' ')" "$rows" "a JSON line per configuration"
if command -v python3 >/dev/null 2>&1; then
	checks=$((checks + 1))
	python3 - "$TMP/export.jsonl" >"$TMP/py.out" 2>&1 <<'EOF' || { fail "export --json through Python's json"; sed 's/^/  | /' "$TMP/py.out" >&2; }
import json, sys
tunables = 0
for number, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    row = json.loads(line)
    config = row["config"]
    assert isinstance(config, dict), "line %d: config is not an object" % number
    assert all(isinstance(v, int) for v in config.values()), "line %d: %r" % (number, config)
    assert "op" not in config, "line %d: op is the problem's, not a tunable" % number
    assert isinstance(row["n"], int) and isinstance(row["median_us"], float), "line %d" % number
    if row["variant"] == "device.atomic" and row["n"] == 16777216:
        assert config == {"block": 1024, "items": 2, "vec": 4, "grid": 0, "evict_first": 1}, config
        tunables += 1
assert tunables == 1, "device.atomic at 2^24: %d lines" % tunables
EOF
fi

# best's table on the same database: its columns hold rows of columns
# ("2^12x1024") as wide as the header, so every dtype sits under "dtype".
expect_exit 0 "best's table" -- "$CONFORM" best 'softmax.*' --n 2^12 --db "$db"
checks=$((checks + 1))
awk '/^device / { col = index($0, "dtype") } /^NVIDIA/ { if (col == 0 || !(substr($0, col, 3) ~ /^(f32|bf1)/)) bad = 1 }
     END { exit bad || col == 0 }' "$TMP/out" || { fail "best's columns do not line up"; sed 's/^/  | /' "$TMP/out" >&2; }

# Bad input: one line, exit 2.
one_line_exit2 "neither --header nor --json" "$CONFORM" export 'device.*' --db "$db"
one_line_exit2 "no kernel" "$CONFORM" export --json --db "$db"
one_line_exit2 "nothing tuned for the kernel" "$CONFORM" export 'warp.*' --json --db "$db"
one_line_exit2 "no database" "$CONFORM" export 'device.*' --json --db "$TMP/none.db"
one_line_exit2 "both to standard output" "$CONFORM" export 'device.*' --json --header - --db "$db"
# A configuration the header cannot hold: refused, and the header it would
# have replaced stays whole.
cp "$TMP/best.h" "$TMP/best.h.before"
"$SQLITE3" "$db" "update results set params = 'block=wide,op=sum' where variant = 'device.cub'"
one_line_exit2 "a tunable that is not an integer" "$CONFORM" export 'device.*' --header "$TMP/best.h" --db "$db"
expect_grep "$TMP/err" "tunable 'block' of 'block=wide" "which tunable"
checks=$((checks + 1))
cmp -s "$TMP/best.h" "$TMP/best.h.before" || fail "a failed export changed the header"
checks=$((checks + 1))
[ "$(ls "$TMP" | grep -c '^best\.h\.')" -eq 1 ] || fail "a failed export left a temporary beside best.h"
"$SQLITE3" "$db" "update results set params = 'block=256,op=sum' where variant = 'device.cub'"

# Where the header may not go, refused before anything is written: the
# database itself or its journal (it once became a C header, exit 0),
# anything that is not a regular file (a FIFO, a symbolic link, a
# directory), while a planted link on the old fixed temporary name
# best.h.tmp is neither followed nor removed.
rows_before=$("$SQLITE3" "$db" "select count(*) from results")
one_line_exit2 "--header is the database" "$CONFORM" export 'device.*' --header "$db" --db "$db"
expect_eq "$("$SQLITE3" "$db" "pragma integrity_check; select count(*) from results" | tr '\n' ' ')" \
	"ok $rows_before " "the database is untouched"
one_line_exit2 "--header is the database by another name" "$CONFORM" export 'device.*' \
	--header "$TMP/../$(basename "$TMP")/h100.db" --db "$db"
one_line_exit2 "--header is the database's journal" "$CONFORM" export 'device.*' --header "$db-wal" --db "$db"
mkfifo "$TMP/fifo.h"
one_line_exit2 "--header is a FIFO" timeout 20 "$CONFORM" export 'device.*' --header "$TMP/fifo.h" --db "$db"
expect_grep "$TMP/err" "FIFO, not a regular file" "says it is a FIFO"
checks=$((checks + 1))
[ -p "$TMP/fifo.h" ] || fail "the FIFO was replaced"
echo "keep" >"$TMP/victim.txt"
ln -s "$TMP/victim.txt" "$TMP/link.h"
one_line_exit2 "--header is a symbolic link" "$CONFORM" export 'device.*' --header "$TMP/link.h" --db "$db"
checks=$((checks + 1))
[ -L "$TMP/link.h" ] && [ "$(cat "$TMP/victim.txt")" = keep ] || fail "the link or its target changed"
mkdir "$TMP/dir.h"
one_line_exit2 "--header is a directory" "$CONFORM" export 'device.*' --header "$TMP/dir.h" --db "$db"
ln -s "$TMP/victim.txt" "$TMP/planted.h.tmp"
expect_exit 0 "export beside a planted best.h.tmp link" -- "$CONFORM" export 'device.*' \
	--header "$TMP/planted.h" --db "$db"
checks=$((checks + 1))
[ -L "$TMP/planted.h.tmp" ] && [ "$(cat "$TMP/victim.txt")" = keep ] ||
	fail "the planted link was followed or removed"
expect_grep "$TMP/planted.h" '^#ifndef CONFORM_EXPORT_PLANTED_H$' "and the header written"

# A hostile database (one db merge away): a variant that would close the
# comment naming its table and start a line of code, a dtype that would
# form the trigraph ??/, a median of inf, an n and a tunable of
# INT64_MIN.  The header compiles clean, defines nothing but conform's own
# names (the program's injected() links), and its lookup runs clean.
hostile="$TMP/hostile.db"
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | "$SQLITE3" "$hostile"
"$SQLITE3" "$hostile" "update results set variant = 'device.x */ int injected(void) { return 1; } /*' || char(10) || '#error injected' where variant = 'device.cub';
	update results set dtype = 'f32??/' where variant = 'device.atomic' and n = 1048576;
	update results set median_ms = 9e999 where variant = 'device.two_pass' and n = 16777216;
	update results set n = -9223372036854775808 where variant = 'device.last_block' and n = 1048576;
	update results set params = 'block=-9223372036854775808,op=sum' where variant = 'device.coop' and n = 16777216;"
expect_exit 0 "export from a hostile database" -- "$CONFORM" export '*' --header "$TMP/hostile.h" --db "$hostile"
cat >"$TMP/hostile.c" <<'EOF'
#include "hostile.h"
int injected(void) { return 0; }
int main(void) { return conform_best_any(NULL, NULL, NULL, 16777216, 0) == NULL || injected(); }
EOF
checks=$((checks + 1))
$CC -std=c99 -Wall -Wextra -Werror -pedantic -I"$TMP" "$TMP/hostile.c" -o "$TMP/hostile" 2>"$TMP/cc.err" ||
	{ fail "the hostile database's header as C99"; sed 's/^/  | /' "$TMP/cc.err" | head -n 10 >&2; }
if command -v "$CXX" >/dev/null 2>&1; then
	checks=$((checks + 1))
	$CXX -x c++ -Wall -Wextra -Werror -I"$TMP" "$TMP/hostile.c" -o "$TMP/hostile++" 2>"$TMP/cxx.err" ||
		{ fail "the hostile database's header as C++"; sed 's/^/  | /' "$TMP/cxx.err" | head -n 10 >&2; }
fi
checks=$((checks + 1))
"$TMP/hostile" || fail "the hostile header's lookup found nothing at 2^24"
if command -v valgrind >/dev/null 2>&1; then
	checks=$((checks + 1))
	valgrind -q --error-exitcode=9 "$TMP/hostile" 2>"$TMP/vg.err" ||
		{ fail "the hostile header's lookup under valgrind"; sed 's/^/  | /' "$TMP/vg.err" | head -n 8 >&2; }
fi
checks=$((checks + 1))
grep -qF '"f32\?\?/"' "$TMP/hostile.h" || fail "a question mark escaped in a string"

# --- One rule for "best" --------------------------------------------------
# A noisy configuration (an 18.9 % interval) whose median is 0.009 ms below
# a steady one's (3.0 %) is not the best: the lowest upper bound of the
# interval wins, in best, export (its JSON and the header's lookup) and
# history, as in tune.  device.q's median is below device.r's steady one too.
rank="$TMP/rank.db"
expect_exit 0 "a tune to make the database" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 \
	--strategy random --budget 2 --min-samples 5 --max-noise 0.02 --max-time 0.01 --db "$rank"
for row in "'device.r', 'block=1,op=sum', 1.000, 0.811, 1.189" "'device.r', 'block=2,op=sum', 1.009, 0.979, 1.039" \
	"'device.q', 'block=3,op=sum', 1.005, 0.815, 1.195"; do
	"$SQLITE3" "$rank" "INSERT INTO results (run_id, case_name, kernel, variant, params, median_ms, ci_low_ms,
		ci_high_ms, status, dtype, n, cols, expect, observed, duration_ms, created_at, samples, gbps, noise, op)
		VALUES (1, 'c', 'device', $row, 'PASS', 'f32', 1048576, 0, 'pass', 'completed-correct', 1,
		'2025-02-01T00:00:00Z', 10, 200, 0.01, 'sum')" || fail "planting $row"
done
for k in device.r 'device.*'; do
	expect_exit 0 "best $k: the lower bound" -- "$CONFORM" best "$k" --n 2^20 --json --db "$rank"
	expect_grep "$TMP/out" '"variant":"device.r",.*"params":"block=2,op=sum"' "best $k: the lower bound"
done
expect_exit 0 "history: the lower bound" -- "$CONFORM" history device.r --json --db "$rank"
expect_grep "$TMP/out" '"config":"block=2"' "history: the run's best has the lower bound"
expect_exit 0 "export --json: the lower bound" -- "$CONFORM" export device.r --json --db "$rank"
expect_grep "$TMP/out" '"config":\{"block":2\}' "export --json: the lower bound"
expect_exit 0 "export --header: the lower bound" -- "$CONFORM" export 'device.*' --header "$TMP/rank.h" --db "$rank"
cat >"$TMP/rank.c" <<'EOF'
#include <stdio.h>
#include "rank.h"
int main(void)
{
	const struct conform_config *c = conform_best_any(NULL, "f32", "sum", 1048576, 0);
	printf("%s %lld\n", c ? c->variant : "none", c ? conform_param(c, "block", -1) : -1);
	return 0;
}
EOF
checks=$((checks + 1))
if $CC -std=c99 -Wall -Wextra -Werror -I"$TMP" "$TMP/rank.c" -o "$TMP/rank" 2>"$TMP/cc.err"; then
	expect_eq "$("$TMP/rank")" "device.r 2" "the header's conform_best_any: the lower bound"
else
	fail "the rank header as C99"
	sed 's/^/  | /' "$TMP/cc.err" | head -n 10 >&2
fi

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
