#!/bin/sh
# objective.sh - --objective time|energy|edp and the energy figures, end to
# end without a GPU: a tune of harness.spin stores no energy (the host has
# no NVML), so its table is what it was; energy planted in the database
# (results.energy_j ..., as a GPU's burst stores it) comes back with every
# resumed configuration, and then the table shows J per launch, W and the
# Pareto mark, each objective picks its own best, the machine-readable rows
# carry the figures (null or an empty cell where missing, never 0), and a
# configuration without an energy figure never wins by energy.
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

finish
