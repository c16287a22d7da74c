#!/bin/sh
# objective.sh - --objective time|energy|edp and the energy figures, end to
# end without a GPU: a tune of harness.spin stores no energy (the host has
# no NVML), so its table is what it was; energy planted in the database
# (results.energy_j ..., as a GPU's burst stores it) comes back with every
# resumed configuration, and then the table shows J per launch, W and the
# Pareto mark, each objective picks its own best, the machine-readable rows
# carry the figures (null or an empty cell where missing, never 0), and a
# configuration without an energy figure never wins by energy.  best and
# export on the H100 tuning database with energy planted the same way: by
# time byte for byte what they were; by energy and edp each its own winner,
# the exported header's lookups agreeing with best.
. "$(dirname "$0")/lib.sh"
PYTHON=${PYTHON:-python3}
FAST="--min-samples 5 --max-noise 0.02 --max-time 0.01 --timeout 5"
T="$TMP/tune.db"

# --- tune and bench ---------------------------------------------------------
expect_exit 0 "tune on the host" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --db "$T"
expect_grep "$TMP/out" "median \(µs\) +GB/s +% copy +× base +noise +spread +status$" "no energy: the table as it was"
expect_no_grep "$TMP/out" "/launch|Pareto|best by" "no energy: no energy columns, no legend"
expect_eq "$(sql "$T" "select count(*) from results where energy_j is not null or power_w is not null")" 0 \
	"no energy stored on the host"

# Three configurations spend energy: F the fastest (4 mJ), M the fourth
# fastest (2 mJ), L the 30th (1.9 mJ); the others have no figure.
cfg() { sql "$T" "select params from results where variant = 'harness.spin' and status = 'PASS'
	order by median_ms, id limit 1 offset $1"; }
F=$(cfg 0) M=$(cfg 3) L=$(cfg 29)
plant() { sql "$T" "update results set energy_j = $2, power_w = $3, power_sampled_w = $3 - 1,
	energy_uncertainty = 0.01, energy_window_s = 0.3, energy_launches = 1000, sm_mhz = 1980,
	mem_mhz = 2619, throttle_reasons = '$4' where variant = 'harness.spin' and params = '$1'"; }
plant "$F" 0.004 300 none
plant "$M" 0.002 250 sw_power_cap
plant "$L" 0.0019 200 none
# Each objective's winner by its rule, worked out here from what is
# stored (the upper ends: J x (1 + uncertainty), the interval's top).
winner() { sql "$T" "select replace(params, ',op=sum', '') from results where variant = 'harness.spin'
	and status = 'PASS' and energy_j is not null order by $1 limit 1"; }
by_energy=$(winner "energy_j * 1.01")
by_edp=$(winner "energy_j * 1.01 * coalesce(ci_high_ms, median_ms)")
expect_eq "$by_energy" "${L%,op=sum}" "planted: L spends least"
expect_eq "$by_edp" "${M%,op=sum}" "planted: M has the least energy-delay product"

expect_exit 0 "tune by energy" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --objective energy --db "$T"
cp "$TMP/out" "$TMP/energy.out"
expect_grep "$TMP/out" ", by energy$" "the opening line names the objective"
expect_grep "$TMP/out" "^  variant .* spread +mJ/launch +W +P +status$" "energy columns in the header"
# The header and the rows (± is one column on a terminal, as
# expect_aligned takes µ and ×).
grep -E '^(  variant |[* ][ =]harness)' "$TMP/out" | sed 's/±/+/g' >"$TMP/energy.table"
expect_aligned "$TMP/energy.table" "^  variant " "the table with energy columns"
expect_grep "$TMP/out" "^\*.harness.spin +$by_energy +.* +1\.900 +200\.0 +P +PASS" "the best by energy, on the front"
expect_grep "$TMP/out" "^  harness.spin +${F%,op=sum} +.* +4\.000 +300\.0 +P +PASS" "the fastest: on the front, not the best"
expect_grep "$TMP/out" " - +- +- +PASS$" "a configuration without energy: - in each energy column"
expect_eq "$(grep -c '^\*' "$TMP/out")" 1 "one best"
expect_grep "$TMP/out" "^  \* best by energy: the lowest upper end of the energy's interval" "the legend names the objective"
expect_grep "$TMP/out" "^  P: on its variant's Pareto front of time and energy" "the Pareto mark explained"
expect_exit 0 "tune by edp" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --objective edp --db "$T"
expect_grep "$TMP/out" "^\*.harness.spin +$by_edp " "the best by edp"
expect_exit 0 "tune by time, energy stored" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --db "$T"
expect_grep "$TMP/out" "spread +mJ/launch +W +P +status$" "by time the energy is shown too"
expect_no_grep "$TMP/out" "best by" "by time no objective legend"
time_best=$(sed -n 's/^\*.harness.spin  *\([^ ]*\) .*/\1/p' "$TMP/out")
checks=$((checks + 1))
[ -n "$time_best" ] && [ "$time_best" != "$by_energy" ] || fail "by time the best is another ($time_best)"
expect_exit 0 "tune --no-energy" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --no-energy --db "$T"
expect_grep "$TMP/out" "spread +status$" "--no-energy: no energy columns, stored figures not shown"
expect_grep "$TMP/out" ", no energy$" "--no-energy said"

# --json and --csv: the energy fields appended, null or empty where missing.
expect_exit 0 "tune --json by energy" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --objective energy --json --db "$T"
cp "$TMP/out" "$TMP/tune.jsonl"
expect_exit 0 "tune --csv by energy" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 $FAST --objective energy --csv --db "$T"
cp "$TMP/out" "$TMP/tune.csv"
checks=$((checks + 1))
"$PYTHON" - "$TMP/tune.jsonl" "$TMP/tune.csv" "$by_energy" "${F%,op=sum}" "${M%,op=sum}" >"$TMP/py.out" 2>&1 <<'PY' ||
import csv, json, sys
jsonl, csvfile, best, fast, mid = sys.argv[1:]
energy = ["energy_j", "power_w", "power_sampled_w", "energy_uncertainty", "energy_window_s",
          "energy_launches", "sm_mhz", "mem_mhz", "throttle_reasons", "pareto"]
lines = open(jsonl, encoding="utf-8").read().splitlines()
rows = [json.loads(l) for l in lines[:-1]]
summary = json.loads(lines[-1])["summary"]
assert summary["objective"] == "energy", summary
for r in rows:
    keys = list(r)
    assert keys[keys.index("device") + 1:] == energy, keys
    spin = [r for r in rows if r["variant"] == "harness.spin"]
with_energy = {r["config"]: r for r in spin if r["energy_j"] is not None}
assert sorted(with_energy) == sorted([best, fast, mid]), sorted(with_energy)
for r in spin:
    if r["config"] in with_energy:
        assert isinstance(r["energy_j"], float) and r["energy_j"] > 0, r
        assert isinstance(r["pareto"], bool) and isinstance(r["sm_mhz"], int), r
    else:
        assert all(r[k] is None for k in energy), r
assert with_energy[best]["best"] and with_energy[best]["energy_j"] == 0.0019, with_energy[best]
assert with_energy[mid]["throttle_reasons"] == "sw_power_cap", with_energy[mid]
assert all(with_energy[c]["pareto"] for c in (best, fast, mid)), with_energy
assert sum(r["best"] for r in spin) == 1
table = list(csv.reader(open(csvfile, encoding="utf-8")))
header, body = table[0], table[1:]
assert header[header.index("device") + 1:] == energy, header
assert len(body) == len(rows)
for row in body:
    r = dict(zip(header, row))
    if r["variant"] == "harness.spin" and r["config"] not in with_energy:
        assert all(r[k] == "" for k in energy), r
    if r["config"] == best:
        assert float(r["energy_j"]) == 0.0019 and r["pareto"] == "1", r
PY
	{ fail "tune --json/--csv by energy"; sed 's/^/  | /' "$TMP/py.out" >&2; }

# Usage errors: one line, exit 2.
one_line_exit2 "tune --objective bogus" "$CONFORM" tune harness.spin --n 2^12 --dtype f32 --objective bogus --db "$T"
expect_grep "$TMP/err" "--objective: unknown objective 'bogus' \(time, energy, edp\)" "the objectives named"
one_line_exit2 "bench --objective bogus" "$CONFORM" bench --objective bogus --db "$T"
one_line_exit2 "energy without energy" "$CONFORM" tune harness.spin --n 2^12 --dtype f32 --objective energy --no-energy --db "$T"
expect_grep "$TMP/err" "--objective energy needs the energy measured" "energy without energy: why"
expect_exit 0 "tune --help" -- "$CONFORM" tune --help
expect_grep "$TMP/out" "^  --objective O " "tune --help: --objective"
expect_grep "$TMP/out" "^  --no-energy " "tune --help: --no-energy"
expect_exit 0 "bench --help" -- "$CONFORM" bench --help
expect_grep "$TMP/out" "^  --objective O " "bench --help: --objective"

# --- best and export ----------------------------------------------------------
# On the H100 tuning database.  By time, --objective time changes nothing,
# byte for byte.
H="$TMP/h100.db"
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | sql "$H" || fail "cannot load the H100 database"
h100="NVIDIA H100 80GB HBM3"
for f in "" --json --csv; do
	"$CONFORM" best 'device.*' --n 2^24 $f --db "$H" >"$TMP/plain" 2>&1
	expect_exit 0 "best --objective time $f" -- "$CONFORM" best 'device.*' --n 2^24 $f --objective time --db "$H"
	checks=$((checks + 1))
	cmp -s "$TMP/plain" "$TMP/out" || fail "best $f: --objective time differs from the default"
done
mkdir "$TMP/default"
"$CONFORM" export 'device.*' --json --header "$TMP/default/time.h" --db "$H" >"$TMP/default.jsonl"
expect_exit 0 "export --objective time" -- "$CONFORM" export 'device.*' --json --header "$TMP/time.h" \
	--objective time --db "$H"
checks=$((checks + 1))
cmp -s "$TMP/default.jsonl" "$TMP/out" || fail "export --json: --objective time differs from the default"
checks=$((checks + 1))
# The second line says when it was written.
[ "$(sed 2d "$TMP/default/time.h")" = "$(sed 2d "$TMP/time.h")" ] || fail "export --header: --objective time differs"

# By time the rows are what they were, whatever the database holds: after
# the energy planted below, checked again at the end.
time_fields() {
	"$CONFORM" best 'device.*' --n 2^24 --json --db "$H" >"$TMP/time.jsonl"
	"$CONFORM" export 'device.*' --json --db "$H" >"$TMP/time-export.jsonl"
	"$CONFORM" best 'device.*' --n 2^24 --db "$H" >"$TMP/time.table"
	checks=$((checks + 1))
	"$PYTHON" - "$TMP/time.jsonl" "$TMP/time-export.jsonl" >"$TMP/py.out" 2>&1 <<'PY' ||
import json, sys
best = ["device", "variant", "dtype", "op", "n", "cols", "requested_n", "exact", "config", "params",
        "median_us", "gbps", "noise", "measured_at", "git_revision", "run_id", "result_id"]
export = ["device", "variant", "dtype", "op", "n", "cols", "config", "median_us", "gbps", "noise",
          "measured_at", "git_revision", "run_id", "result_id"]
for line in open(sys.argv[1], encoding="utf-8"):
    assert list(json.loads(line)) == best, line
for line in open(sys.argv[2], encoding="utf-8"):
    assert list(json.loads(line)) == export, line
PY
		{ fail "$1: best and export --json by time hold other fields"; sed 's/^/  | /' "$TMP/py.out" >&2; }
	expect_grep "$TMP/time.table" "^device +variant +n +dtype +op +configuration +median \(µs\) +GB/s +noise +measured +build$" \
		"$1: best's table by time"
	expect_no_grep "$TMP/time.table" "best by|/launch" "$1: no energy in best's table by time"
	expect_aligned "$TMP/time.table" "^device  " "$1: best's table by time"
}
time_fields "without energy"

# device.atomic f32 sum at 2^24: T the fastest by time's rule spends
# 10 mJ, D the second fastest 6 mJ, E the slowest (20 % slower than D)
# 5.5 mJ: energy picks E, edp D, time T (the oracle below works it out from
# what is stored).  Every other configuration and variant has no energy
# figure.
atomic="variant = 'device.atomic' and dtype = 'f32' and op = 'sum' and status = 'PASS' and median_ms is not null"
nth() { sql "$H" "select params from results where $atomic and n = $1 group by params
	order by min(coalesce(ci_high_ms, median_ms)), min(median_ms) limit 1 offset $2"; }
T=$(nth 16777216 0) D=$(nth 16777216 1)
E=$(sql "$H" "select params from results where $atomic and n = 16777216 order by median_ms desc limit 1")
spend() { sql "$H" "update results set energy_j = $3, power_w = $4, energy_uncertainty = 0.01,
	throttle_reasons = 'none' where $atomic and n = $1 and params = '$2'"; }
spend 16777216 "$T" 0.010 420
spend 16777216 "$D" 0.006 250
spend 16777216 "$E" 0.0055 150
oracle() { sql "$H" "select params from results where $atomic and n = 16777216 and energy_j is not null
	order by $1 limit 1"; }
expect_eq "$(oracle "energy_j * 1.01")" "$E" "planted: E spends least"
expect_eq "$(oracle "energy_j * 1.01 * coalesce(ci_high_ms, median_ms)")" "$D" "planted: D has the least energy-delay"
# best_says KERNEL N OBJECTIVE: "variant params" of best --json.
best_says() {
	"$CONFORM" best "$1" --n "$2" --dtype f32 --op sum --gpu "$h100" --objective "$3" --json --db "$H" |
		sed -n 's/.*"variant":"\([^"]*\)".*"params":"\([^"]*\)".*/\1 \2/p'
}
expect_eq "$(best_says device.atomic 2^24 time)" "device.atomic $T" "best by time: T"
expect_eq "$(best_says device.atomic 2^24 energy)" "device.atomic $E" "best by energy: E, not the fastest"
expect_eq "$(best_says device.atomic 2^24 edp)" "device.atomic $D" "best by edp: D, by the product"
expect_eq "$(best_says 'device.*' 2^24 energy)" "device.atomic $E" "across variants: those without energy never win"
# At 2^20 only the slowest configuration has an energy figure: it wins by
# energy over every faster one without.
S=$(sql "$H" "select params from results where $atomic and n = 1048576 order by median_ms desc limit 1")
spend 1048576 "$S" 0.05 100
expect_eq "$(best_says device.atomic 2^20 energy)" "device.atomic $S" "without energy never wins by energy"
# At 2^28 device.atomic has none: time answers.  device.two_pass's slowest
# configuration there has one, and wins across the variants.
expect_eq "$(best_says device.atomic 2^28 energy)" "$(best_says device.atomic 2^28 time)" \
	"no energy figure anywhere: time decides"
two="variant = 'device.two_pass' and dtype = 'f32' and op = 'sum' and status = 'PASS' and n = 268435456"
W=$(sql "$H" "select params from results where $two order by median_ms desc limit 1")
sql "$H" "update results set energy_j = 0.1, energy_uncertainty = 0.01 where $two and params = '$W'"
expect_eq "$(best_says 'device.*' 2^28 energy)" "device.two_pass $W" "across variants at 2^28: the one with energy"
checks=$((checks + 1))
[ "$(best_says 'device.*' 2^28 time)" != "device.two_pass $W" ] || fail "by time two_pass's slowest does not win"

expect_exit 0 "best by energy" -- "$CONFORM" best 'device.*' --n 2^24 --objective energy --db "$H"
expect_grep "$TMP/out" "^best by energy: the lowest upper end of the energy's interval" "best names the objective"
expect_grep "$TMP/out" "noise +mJ/launch +W +measured +build$" "best's energy columns"
expect_grep "$TMP/out" "device.atomic .* 5\.500 +150\.0 +20" "E's energy and power"
expect_aligned "$TMP/out" "^device  " "best's table by energy"
expect_exit 0 "best by energy at 2^30" -- "$CONFORM" best 'device.*' --n 2^30 --objective energy --json --db "$H"
cp "$TMP/out" "$TMP/best30.jsonl"
expect_exit 0 "best by energy --json" -- "$CONFORM" best 'device.*' --n 2^24 --objective energy --json --db "$H"
cp "$TMP/out" "$TMP/best.jsonl"
expect_exit 0 "best by energy --csv" -- "$CONFORM" best 'device.*' --n 2^30 --objective energy --csv --db "$H"
cp "$TMP/out" "$TMP/best30.csv"
checks=$((checks + 1))
"$PYTHON" - "$TMP/best.jsonl" "$TMP/best30.jsonl" "$TMP/best30.csv" >"$TMP/py.out" 2>&1 <<'PY' ||
import csv, json, sys
energy = ["energy_j", "power_w", "power_sampled_w", "energy_uncertainty", "energy_window_s",
          "energy_launches", "sm_mhz", "mem_mhz", "throttle_reasons"]
best = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(best) == 1, best
b = best[0]
keys = list(b)
assert keys[keys.index("result_id") + 1:] == energy + ["objective"], keys
assert b["objective"] == "energy" and b["energy_j"] == 0.0055 and b["power_w"] == 150, b
assert b["throttle_reasons"] == "none" and b["sm_mhz"] is None, b
for line in open(sys.argv[2], encoding="utf-8"):
    r = json.loads(line)
    assert r["objective"] == "energy" and all(r[k] is None for k in energy), r
table = list(csv.reader(open(sys.argv[3], encoding="utf-8")))
header = table[0]
assert header[-10:] == energy + ["objective"], header
for row in table[1:]:
    r = dict(zip(header, row))
    assert all(r[k] == "" for k in energy) and r["objective"] == "energy", r
PY
	{ fail "best by energy through Python's json and csv"; sed 's/^/  | /' "$TMP/py.out" >&2; }

# export by energy: the header compiles clean, says what chose, and its
# lookups answer as best --objective energy does, on and between the
# tuned sizes; --json carries the objective and the figures.
expect_exit 0 "export by energy" -- "$CONFORM" export 'device.*' --objective energy \
	--header "$TMP/energy.h" --db "$H"
expect_grep "$TMP/energy.h" "^ \* the best correct configuration by energy measured per device and size" \
	"the header says by energy"
expect_grep "$TMP/energy.h" "^ \* Best by energy: the lowest upper end of the energy's interval" "and by what rule"
expect_grep "$TMP/energy.h" "/\* 0\.0055 J per launch, 150 W \*/" "E's energy beside its entry"
cat >"$TMP/ask.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "energy.h"

int main(int argc, char **argv)
{
	const struct conform_config *c;
	long long n = atoll(argv[2]);
	int i;
	if (argc != 3)
		return 2;
	if (strcmp(argv[1], "any") == 0)
		c = conform_best_any("NVIDIA H100 80GB HBM3", "f32", "sum", n, 0);
	else
		c = conform_best_device_atomic_f32_sum(NULL, n, 0);
	if (!c) {
		printf("none\n");
		return 0;
	}
	printf("%s ", c->variant);
	for (i = 0; i < c->nparams; i++)
		printf("%s=%lld,", c->params[i].name, c->params[i].value);
	printf("op=sum\n");
	return 0;
}
C
checks=$((checks + 1))
if ${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -I"$TMP" "$TMP/ask.c" -o "$TMP/ask" 2>"$TMP/cc.err"; then
	for n in 1024 1048576 4194304 16777216 33554432 268435456 1073741824 4294967296 3000000; do
		for k in any atomic; do
			checks=$((checks + 1))
			want=$(best_says "$([ $k = any ] && echo 'device.*' || echo device.atomic)" "$n" energy)
			got=$("$TMP/ask" $k "$n")
			[ -n "$want" ] && [ "$got" = "$want" ] ||
				fail "the header's $k lookup by energy at n=$n: '$got', best: '$want'"
		done
	done
	expect_eq "$("$TMP/ask" any 16777216)" "device.atomic $E" "the header's winner at 2^24 by energy: E"
else
	fail "the energy header as C99"
	sed 's/^/  | /' "$TMP/cc.err" | head -n 20 >&2
fi
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
	checks=$((checks + 1))
	${CXX:-c++} -x c++ -Wall -Wextra -Werror -I"$TMP" "$TMP/ask.c" -o "$TMP/ask++" 2>"$TMP/cxx.err" ||
		{ fail "the energy header as C++"; sed 's/^/  | /' "$TMP/cxx.err" | head -n 20 >&2; }
fi
expect_exit 0 "export --json by energy" -- "$CONFORM" export 'device.*' --objective energy --json --db "$H"
expect_grep "$TMP/out" "^\{\"device\":\"$h100\",\"variant\":\"device.atomic\",\"dtype\":\"f32\",\"op\":\"sum\",\"n\":16777216,.*\"energy_j\":0.0055,\"power_w\":150,.*\"objective\":\"energy\"\}$" \
	"export --json: E at 2^24, with its figures and the objective"
expect_grep "$TMP/out" "\"n\":1073741824,.*\"energy_j\":null,\"power_w\":null,.*\"objective\":\"energy\"" \
	"export --json: null where no energy was measured"
time_fields "with energy stored"
one_line_exit2 "best --objective bogus" "$CONFORM" best 'device.*' --n 2^24 --objective bogus --db "$H"
one_line_exit2 "export --objective bogus" "$CONFORM" export 'device.*' --json --objective bogus --db "$H"
expect_exit 0 "best --help" -- "$CONFORM" best --help
expect_grep "$TMP/out" "^  --objective O " "best --help: --objective"
expect_exit 0 "export --help" -- "$CONFORM" export --help
expect_grep "$TMP/out" "^  --objective O " "export --help: --objective"

finish
