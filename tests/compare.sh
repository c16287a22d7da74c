#!/bin/sh
# compare.sh - conform compare on databases made here: conformance runs of
# the host-only harness whose expectation changes between runs, and bench
# runs whose timings are written with sqlite3 to hit each verdict: a
# configuration slower beyond the threshold and the noise, one slower
# within the noise, one within the threshold; their energy, written the
# same way, for each energy verdict and --gate energy, and without it the
# output as it was before energy; shards of a tag compared as one run;
# every output form read back by a real parser; every exit code.
. "$(dirname "$0")/lib.sh"

command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: skipped"; exit 77; }

db="$TMP/c.db"
one_line_exit2 "no database" "$CONFORM" compare --db "$TMP/none.db"

# --- Status: an expectation changed between two conformance runs --------
suite() { printf 'case harness.wrong.i32 variant=harness.wrong dtype=i32 n=64 expect=%s\ncase harness.pass.i32 variant=harness.pass dtype=i32 n=64\n' "$1" >"$TMP/s.suite"; }
suite fail
expect_exit 0 "first run" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
one_line_exit2 "one run: no base" "$CONFORM" compare --db "$db"
expect_grep "$TMP/err" "no finished conformance run" "no base: why"
expect_exit 0 "second run, the same" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
expect_exit 0 "identical runs" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^status: 0 regressions, 0 fixed, 0 other changes, 0 new, 0 removed$" "identical: no change"
expect_grep "$TMP/out" "^result: 0 regressions, 0 slower configurations: exit 0$" "identical: exit 0 said"
suite pass
expect_exit 1 "third run, the expectation changed" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --db "$db"
expect_exit 1 "a case became a failure" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^  regression +harness\.wrong\.i32 +XFAIL -> FAIL +\(completed-wrong -> completed-wrong\)$" "the regression listed"
expect_exit 1 "named runs: 2 3" -- "$CONFORM" compare 2 3 --db "$db"
expect_exit 0 "named runs: 1 2" -- "$CONFORM" compare 1 2 --db "$db"
expect_exit 0 "reversed: fixed" -- "$CONFORM" compare 3 2 --db "$db"
expect_grep "$TMP/out" "^  fixed +harness\.wrong\.i32 +FAIL -> XFAIL" "the fix listed"
expect_exit 1 "last~1 last" -- "$CONFORM" compare last~1 last --db "$db"
# The failures of run 3 as a baseline: with it, that run's suite passes.
expect_exit 0 "write a baseline" -- "$CONFORM" compare 3 --write-baseline "$TMP/known.txt" --db "$db"
expect_grep "$TMP/out" "known.txt: 1 known failure of run 3$" "what was written"
expect_grep "$TMP/known.txt" "^harness\.wrong\.i32  FAIL \(completed-wrong\) in run 3, build " "the baseline's line"
expect_exit 0 "the run with the baseline" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --baseline "$TMP/known.txt" --db "$TMP/other.db"
# A database may hold failures under names no suite gives (empty, with a
# space or a glob character): those are left out with one line, the rest
# written ("Invalid argument" wrote nothing).
cp "$db" "$TMP/names.db"
sql "$TMP/names.db" "insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status,
	observed, duration_ms, created_at) select 3, x.name, 'k', 'k.v', '', 'f32', 1, 0, 'pass', 'FAIL', 'completed-wrong',
	1, 'x' from (select '' as name union all select 'a b' union all select 'c*d') x"
expect_exit 0 "a baseline with names no suite gives" -- "$CONFORM" compare 3 --write-baseline "$TMP/names.txt" --db "$TMP/names.db"
expect_eq "$(cat "$TMP/err")" "conform: --write-baseline: 3 failing results left out: their case name is not one a suite can give ('', ...)" "the names left out, one line"
expect_grep "$TMP/out" "names.txt: 1 known failure of run 3$" "the rest written"
expect_exit 0 "the run with that baseline" -- "$CONFORM" --suite "$TMP/s.suite" --all --seed 1 --baseline "$TMP/names.txt" --db "$TMP/other.db"
one_line_exit2 "a baseline from two sides" "$CONFORM" compare 2 3 --write-baseline "$TMP/k2.txt" --db "$db"
one_line_exit2 "a baseline where no file can be" "$CONFORM" compare 3 --write-baseline "$TMP/no/such/dir/b.txt" --db "$db"
expect_exit 1 "the git revision of the build" -- "$CONFORM" compare 1 "$(sql "$db" "select git_revision from runs where id = 3")" --db "$db"

# A database is data: a case name and a tag holding escape sequences reach
# the terminal as '?', in every form compare prints for it.
cp "$db" "$TMP/esc.db"
sql "$TMP/esc.db" "update results set case_name = 'harness.wrong' || char(27) || '[31m.i32' where case_name = 'harness.wrong.i32'; update runs set tag = 'x' || char(27) || ']0;owned' || char(7) where id = 3"
expect_exit 1 "compare -v of escape sequences" -- "$CONFORM" compare -v 2 3 --db "$TMP/esc.db"
checks=$((checks + 1))
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/out" "$TMP/err" || LC_ALL=C grep -q "$(printf '\007')" "$TMP/out"; then
	fail "compare -v wrote a raw ESC or BEL"
fi
expect_grep "$TMP/out" "harness\.wrong\?\[31m\.i32" "the case name with its escape shown as ?"
expect_exit 1 "compare --markdown of escape sequences" -- "$CONFORM" compare --markdown -v 2 3 --db "$TMP/esc.db"
checks=$((checks + 1))
LC_ALL=C grep -q "$(printf '\033')" "$TMP/out" && fail "compare --markdown wrote a raw ESC"

# --- Timing: bench runs written here ---------------------------------------
# run ID KIND TAG: a finished run; result RUN PARAMS MEDIAN LOW HIGH.
run() { sql "$db" "insert into runs (id, started_at, state, kind, tag, git_revision) values ($1, '2026-01-01T00:00:$1Z', 'complete', '$2', nullif('$3', ''), 'abc1234')"; }
result() {
	sql "$db" "insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed, duration_ms, created_at, median_ms, samples, ci_low_ms, ci_high_ms, spread, noise_met, timer, op)
		values ($1, 'tune.device.v', 'device', 'device.v', '$2', 'f32', 1048576, 0, 'pass', 'PASS', 'completed-correct', 1.0, 'x', $3, 100, $4, $5, 0.01, 1, 'cupti', 'sum')"
}
run 11 bench ""
result 11 "b=1,op=sum" 1.00 0.99 1.01
result 11 "b=2,op=sum" 2.00 1.99 2.01
result 11 "b=3,op=sum" 3.00 2.90 3.10
result 11 "b=4,op=sum" 4.00 3.99 4.01
run 12 bench ""
result 12 "b=1,op=sum" 1.00 0.99 1.01
result 12 "b=2,op=sum" 2.30 2.29 2.31
result 12 "b=3,op=sum" 3.30 3.05 3.60
result 12 "b=4,op=sum" 4.12 4.11 4.13
expect_exit 1 "bench: one slower" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^base: run 11 \(bench, " "the kind of the newest run"
expect_grep "$TMP/out" "^timing: 4 configurations timed in both, threshold 5%: 1 slower, 0 faster, 3 same$" "verdict counts"
expect_grep "$TMP/out" "^  SLOWER  device\.v f32 sum n=2\^20 b=2$" "the slower configuration"
expect_grep "$TMP/out" "^          2000\.000 us \[1990\.000, 2010\.000\] -> 2300\.000 us \[2290\.000, 2310\.000\]: \+15\.0% \[\+13\.9%, \+16\.1%\]$" "by how much, with its interval"
expect_no_grep "$TMP/out" "b=3$" "slower within the noise: not listed"
expect_exit 0 "a higher threshold" -- "$CONFORM" compare --threshold 20% --db "$db"
expect_exit 1 "a lower one catches b=4 (+3 %, apart)" -- "$CONFORM" compare --threshold 2 --db "$db"
expect_grep "$TMP/out" "2 slower" "b=2 and b=4"
expect_exit 0 "conformance runs still pair by kind" -- "$CONFORM" compare 1 2 --db "$db"
one_line_exit2 "nothing in both" "$CONFORM" compare 2 11 --db "$db"
expect_grep "$TMP/err" "nothing to compare: no case or configuration is in both run 2 and run 11" "nothing in both: why"
# "Did sum at 2^20 get slower?" - one command, the exit code the answer.
expect_exit 1 "filtered: sum at 2^20" -- "$CONFORM" compare --n 2^20 --op sum --dtype f32 --filter 'device.*' --db "$db"
one_line_exit2 "filtered: another size" "$CONFORM" compare 11 12 --n 2^24 --db "$db"
expect_grep "$TMP/err" "nothing to compare: no case or configuration that the filters take is in both run 11 and run 12" "a filter that takes nothing is no pass"
one_line_exit2 "filtered: another variant" "$CONFORM" compare 11 12 --filter 'harness.*' --db "$db"

expect_exit 1 "markdown" -- "$CONFORM" compare --markdown --db "$db"
expect_grep "$TMP/out" "^## conform compare: regression$" "markdown heading"
expect_grep "$TMP/out" "^\| \*\*SLOWER\*\* \| \`device\.v f32 sum n=2\^20 b=2\` \| 2000\.000 \[1990\.000, 2010\.000\] \| 2300\.000 \[2290\.000, 2310\.000\] \| \+15\.0% \| \[\+13\.9%, \+16\.1%\] \|$" "markdown row"
expect_exit 1 "json and junit" -- "$CONFORM" compare --json --junit "$TMP/c.xml" --db "$db"
if command -v python3 >/dev/null 2>&1; then
	expect_eq "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
slow = [r for r in rows if r.get("verdict") == "SLOWER"]
s = rows[-1]["summary"]
print(len(slow), slow[0]["params"], round(slow[0]["ratio"], 3), s["slower"], s["same"], s["exit"])' "$TMP/out")" \
		"1 b=2,op=sum 1.15 1 3 1" "json lines parsed"
	expect_eq "$(python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
cases = t.findall(".//testcase")
print(t.get("failures"), len(cases), [c.get("name") for c in cases if c.find("failure") is not None])' "$TMP/c.xml")" \
		"1 4 ['device.v f32 sum n=2^20 b=2']" "junit parsed"
else
	echo "python3 not found: json and junit not parsed"
fi

# --- Energy: the same bench runs, energy per launch set here ---------------
# same_file GOT WANT DESCRIPTION: byte for byte.
same_file() {
	checks=$((checks + 1))
	cmp -s "$1" "$2" || { fail "$3: not as before"; diff "$2" "$1" | sed 's/^/  | /' | head -n 20 >&2; }
}
# Runs that measured no energy read as before energy was measured: the
# terminal's, Markdown's and JUnit's whole text, as a build without energy
# printed them.
cat >"$TMP/want-text" <<'EOF'
base: run 11 (bench, 2026-01-01T00:00:11Z, build abc1234)
new:  run 12 (bench, 2026-01-01T00:00:12Z, build abc1234)
device: host

status: 0 regressions, 0 fixed, 0 other changes, 0 new, 0 removed

timing: 4 configurations timed in both, threshold 5%: 1 slower, 0 faster, 3 same
  SLOWER  device.v f32 sum n=2^20 b=2
          2000.000 us [1990.000, 2010.000] -> 2300.000 us [2290.000, 2310.000]: +15.0% [+13.9%, +16.1%]

best per problem (what conform history follows; not a verdict): 0 of 1 changed

result: 0 regressions, 1 slower configuration: exit 1
EOF
cat >"$TMP/want-md" <<'EOF'
## conform compare: regression

| | run |
|---|---|
| base | run 11 (bench, 2026-01-01T00:00:11Z, build abc1234) |
| new | run 12 (bench, 2026-01-01T00:00:12Z, build abc1234) |
| device | host |

**0 status regressions, 1 slower configuration** (threshold 5%); 0 fixed, 0 faster.

### Timing

| verdict | configuration | base (µs) | new (µs) | change | its interval |
|---|---|---|---|---|---|
| **SAME** | `device.v f32 sum n=2^20 b=1` | 1000.000 [990.000, 1010.000] | 1000.000 [990.000, 1010.000] | +0.0% | [-2.0%, +2.0%] |
| **SLOWER** | `device.v f32 sum n=2^20 b=2` | 2000.000 [1990.000, 2010.000] | 2300.000 [2290.000, 2310.000] | +15.0% | [+13.9%, +16.1%] |
| **SAME** | `device.v f32 sum n=2^20 b=3` | 3000.000 [2900.000, 3100.000] | 3300.000 [3050.000, 3600.000] | +10.0% | [-1.6%, +24.1%] |
| **SAME** | `device.v f32 sum n=2^20 b=4` | 4000.000 [3990.000, 4010.000] | 4120.000 [4110.000, 4130.000] | +3.0% | [+2.5%, +3.5%] |

4 configurations timed in both: 1 slower, 0 faster, 3 the same.  Cases: 0 new, 0 removed.

Exit status 1.
EOF
cat >"$TMP/want-junit" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="conform compare" tests="4" failures="1" errors="0">
<testsuite name="compare" tests="4" failures="1" errors="0">
<testcase classname="timing" name="device.v f32 sum n=2^20 b=1"></testcase>
<testcase classname="timing" name="device.v f32 sum n=2^20 b=2"><failure message="SLOWER: 2000.000 -&gt; 2300.000 us (+15.0%, interval +13.9% to +16.1%)"/></testcase>
<testcase classname="timing" name="device.v f32 sum n=2^20 b=3"></testcase>
<testcase classname="timing" name="device.v f32 sum n=2^20 b=4"></testcase>
</testsuite>
</testsuites>
EOF
expect_exit 1 "time only" -- "$CONFORM" compare 11 12 --junit "$TMP/time.xml" --db "$db"
same_file "$TMP/out" "$TMP/want-text" "time only: the terminal's text"
same_file "$TMP/time.xml" "$TMP/want-junit" "time only: JUnit"
expect_exit 1 "time only, markdown" -- "$CONFORM" compare --markdown -v 11 12 --db "$db"
same_file "$TMP/out" "$TMP/want-md" "time only: Markdown"
# Gated, the energy line says that nothing was measured.
expect_exit 1 "time only, --gate energy" -- "$CONFORM" compare --gate energy 11 12 --db "$db"
expect_grep "$TMP/out" "^energy: 0 more, 0 less, 0 same, 4 not measured$" "time only, --gate energy: nothing measured, said"

# A copy where b=2 is as fast as before and b=5 to b=10 are b=1 again
# (every timing SAME: only energy differs), with energy: b=1 more, b=2 the
# same within both uncertainties and the repeatability, b=3 less, b=4
# measured on the base side alone; b=5 and b=6 more, b=7 the same, b=8 to
# b=10 measured by neither.  Each count differs from the others.
edb="$TMP/energy.db"
cp "$db" "$edb"
energy() {
	sql "$edb" "update results set energy_j = $3, energy_uncertainty = $4, power_w = 500, energy_window_s = 0.3,
		energy_launches = 1000 where run_id = $1 and params = '$2'"
}
sql "$edb" "update results set median_ms = 2.00, ci_low_ms = 1.99, ci_high_ms = 2.01 where run_id = 12 and params = 'b=2,op=sum';
	insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed,
		duration_ms, created_at, median_ms, samples, ci_low_ms, ci_high_ms, spread, noise_met, timer, op)
	select run_id, case_name, kernel, variant, 'b=' || k.b || ',op=sum', dtype, n, cols, expect, status, observed,
		duration_ms, created_at, median_ms, samples, ci_low_ms, ci_high_ms, spread, noise_met, timer, op
	from results, (select 5 as b union all select 6 union all select 7 union all select 8 union all select 9
		union all select 10) k
	where run_id in (11, 12) and params = 'b=1,op=sum'"
for b in 1 5 6; do
	energy 11 b=$b,op=sum 0.001 0.01
	energy 12 b=$b,op=sum 0.00112 0.01
done
energy 11 b=2,op=sum 0.002 0.01
energy 12 b=2,op=sum 0.00206 0.01
energy 11 b=3,op=sum 0.003 0.005
energy 12 b=3,op=sum 0.0027 0.005
energy 11 b=4,op=sum 0.004 0.01
energy 11 b=7,op=sum 0.001 0.01
energy 12 b=7,op=sum 0.00101 0.01
expect_exit 0 "more energy: reported, no regression" -- "$CONFORM" compare 11 12 --db "$edb"
expect_grep "$TMP/out" "^timing: 10 configurations timed in both, threshold 5%: 0 slower, 0 faster, 10 same$" "energy: every timing SAME"
expect_grep "$TMP/out" "^energy: 3 more, 1 less, 2 same, 4 not measured$" "energy: the summary line"
expect_eq "$(grep -c '^  more    ' "$TMP/out")" 3 "energy: each more listed"
expect_grep "$TMP/out" "^  more    device\.v f32 sum n=2\^20 b=1$" "energy: more listed"
expect_grep "$TMP/out" "^          1\.000 mJ \+/-1\.0% -> 1\.120 mJ \+/-1\.0%: energy \+12\.0% \(more\)$" "energy: by how much"
expect_grep "$TMP/out" "^  less    device\.v f32 sum n=2\^20 b=3$" "energy: less listed"
expect_grep "$TMP/out" "^          3\.000 mJ \+/-0\.5% -> 2\.700 mJ \+/-0\.5%: energy -10\.0% \(less\)$" "energy: less, by how much"
expect_no_grep "$TMP/out" "b=([24789]|10)$" "energy: the same and the not measured only counted"
expect_grep "$TMP/out" "^result: 0 regressions, 0 slower configurations: exit 0$" "energy: no regression said"
expect_exit 0 "energy -v" -- "$CONFORM" compare -v 11 12 --db "$edb"
expect_grep "$TMP/out" "^          2\.000 mJ \+/-1\.0% -> 2\.060 mJ \+/-1\.0%: energy \+3\.0% \(same\)$" "energy -v: +3 % within 1 + 1 + 2 %"
expect_no_grep "$TMP/out" "4\.000 mJ" "energy -v: no verdict where one side did not measure"
expect_exit 1 "--gate energy: more energy fails" -- "$CONFORM" compare --gate energy 11 12 --db "$edb"
expect_grep "$TMP/out" "^result: 0 regressions, 0 slower configurations, 3 with more energy: exit 1$" "--gate energy: the result"
# The margin the pages state is ENERGY_REPEAT's.
repeat=$(sed -n 's/^#define ENERGY_REPEAT \([0-9.]*\).*/\1/p' "$top_srcdir/common/energy.h")
pct=$(awk -v r="$repeat" 'BEGIN { printf "%g", 100 * r }')
expect_grep "$top_srcdir/docs/comparing.md" "u_base \+ u_new \+ $pct %" "docs/comparing.md: the repeatability is ENERGY_REPEAT ($repeat)"
expect_grep "$top_srcdir/docs/conform.1" "uncertainties plus $pct%" "conform.1: the repeatability is ENERGY_REPEAT ($repeat)"
one_line_exit2 "--gate of something else" "$CONFORM" compare --gate power 11 12 --db "$edb"
expect_grep "$TMP/err" "^conform: --gate: expected energy" "--gate power: why"
expect_exit 0 "energy markdown" -- "$CONFORM" compare --markdown 11 12 --db "$edb"
expect_grep "$TMP/out" "^\| \*\*more\*\* \| \`device\.v f32 sum n=2\^20 b=1\` \| 1\.000 mJ \+/-1\.0% \| 1\.120 mJ \+/-1\.0% \| \+12\.0% \|$" "energy markdown: the row"
expect_grep "$TMP/out" "^Energy: 3 more, 1 less, 2 same, 4 not measured \(not gated\)\.$" "energy markdown: the count"
expect_grep "$TMP/out" "^## conform compare: no regression$" "energy markdown: no regression"
# An uncertainty not measured (a row written by hand) is left out, not
# shown as 0.
cp "$edb" "$TMP/no-u.db"
sql "$TMP/no-u.db" "update results set energy_uncertainty = NULL where run_id = 12 and params = 'b=1,op=sum'"
expect_exit 0 "energy without its uncertainty" -- "$CONFORM" compare 11 12 --db "$TMP/no-u.db"
expect_grep "$TMP/out" "^          1\.000 mJ \+/-1\.0% -> 1\.120 mJ: energy \+12\.0% \(more\)$" \
	"energy without its uncertainty: none shown, not +/-0.0%"
# The JSON's energy members, each null where a side did not measure;
# JUnit fails more energy only under --gate energy.
json_energy() {
	python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
t = {r["params"]: r for r in rows if r.get("section") == "timing"}
s = rows[-1]["summary"]
def f(v): return "null" if v is None else ("%.4g" % v if isinstance(v, float) else str(v))
for p in ("b=1,op=sum", "b=3,op=sum", "b=4,op=sum"):
    r = t[p]
    print(p, f(r["energy_base_j"]), f(r["energy_new_j"]), f(r["energy_change"]), f(r["energy_verdict"]))
print(s["energy_more"], s["energy_less"], s["energy_same"], s["energy_not_measured"], s["gate_energy"], s["exit"])' "$1"
}
junit_failures() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
print(t.get("failures"))
for c in t.iter("testcase"):
    if c.find("failure") is not None:
        print(c.get("name") + ": " + c.find("failure").get("message"))' "$1"
}
if command -v python3 >/dev/null 2>&1; then
	expect_exit 0 "energy json" -- "$CONFORM" compare --json --junit "$TMP/e.xml" 11 12 --db "$edb"
	expect_eq "$(json_energy "$TMP/out")" "b=1,op=sum 0.001 0.00112 0.12 more
b=3,op=sum 0.003 0.0027 -0.1 less
b=4,op=sum 0.004 null null null
3 1 2 4 False 0" "energy json: members and summary"
	expect_eq "$(junit_failures "$TMP/e.xml")" "0" "energy junit: no failure without the gate"
	expect_exit 1 "energy json, gated" -- "$CONFORM" compare --json --gate energy --junit "$TMP/e.xml" 11 12 --db "$edb"
	expect_eq "$(json_energy "$TMP/out" | tail -n 1)" "3 1 2 4 True 1" "energy json, gated: the summary"
	expect_eq "$(junit_failures "$TMP/e.xml")" "3
device.v f32 sum n=2^20 b=1: MORE ENERGY: 1.000 -> 1.120 mJ per launch (+12.0%)
device.v f32 sum n=2^20 b=5: MORE ENERGY: 1.000 -> 1.120 mJ per launch (+12.0%)
device.v f32 sum n=2^20 b=6: MORE ENERGY: 1.000 -> 1.120 mJ per launch (+12.0%)" "energy junit, gated: the failures"
	# Slower and more: one failure, saying both.
	sql "$edb" "update results set median_ms = 1.5, ci_low_ms = 1.49, ci_high_ms = 1.51 where run_id = 12 and params = 'b=1,op=sum'"
	expect_exit 1 "slower and more" -- "$CONFORM" compare --gate energy --junit "$TMP/e.xml" 11 12 --db "$edb"
	expect_grep "$TMP/out" "^result: 0 regressions, 1 slower configuration, 3 with more energy: exit 1$" "slower and more: the result"
	expect_eq "$(junit_failures "$TMP/e.xml" | head -n 2)" "3
device.v f32 sum n=2^20 b=1: SLOWER: 1000.000 -> 1500.000 us (+50.0%, interval +47.5% to +52.5%); MORE ENERGY: 1.000 -> 1.120 mJ per launch (+12.0%)" "slower and more: one failure"
else
	echo "python3 not found: energy json and junit not parsed"
fi

# A run of another kind and build.
sql "$db" "insert into runs (id, started_at, state, kind, git_revision) values (13, '2026-01-01T00:00:13Z', 'complete', 'tune', 'v1.2-3-gdef5678-dirty')"
result 13 "b=1,op=sum" 1.00 0.99 1.01
expect_exit 0 "across kinds and builds" -- "$CONFORM" compare 11 13 --db "$db"
expect_grep "$TMP/out" "^WARNING: different kinds of run \(bench, tune\); different builds \(abc1234, v1\.2-3-gdef5678-dirty\)$" "said loudly"
expect_exit 0 "a full SHA, in capitals, finds a describe-style revision" -- "$CONFORM" compare 11 DEF5678AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA --db "$db"
expect_grep "$TMP/out" "^new:  run 13 " "the run built from it"
expect_exit 0 "the same run twice" -- "$CONFORM" compare 12 12 --db "$db"
expect_grep "$TMP/out" "^WARNING: the same run on both sides$" "the same run: said"

# --- Tags: the shards of two jobs, compared as one run each ----------------
run 21 bench base
result 21 "b=1,op=sum" 1.00 0.99 1.01
run 22 bench base
result 22 "b=2,op=sum" 2.00 1.99 2.01
run 23 bench cand
result 23 "b=2,op=sum" 1.50 1.49 1.51
run 24 bench cand
result 24 "b=1,op=sum" 1.00 0.99 1.01
expect_exit 0 "two tags" -- "$CONFORM" compare --tag base --tag cand --db "$db"
expect_grep "$TMP/out" "^base: tag base \(2 runs\) " "the base side: both shards"
expect_grep "$TMP/out" "^timing: 2 configurations timed in both, threshold 5%: 0 slower, 1 faster, 1 same$" "paired across shards"
expect_exit 1 "a tag against a run" -- "$CONFORM" compare --tag base 12 --db "$db"

# --- Usage ------------------------------------------------------------------
one_line_exit2 "bad threshold" "$CONFORM" compare --threshold 0 --db "$db"
one_line_exit2 "bad threshold text" "$CONFORM" compare --threshold 5x --db "$db"
one_line_exit2 "bad kind" "$CONFORM" compare --kind nightly --db "$db"
one_line_exit2 "three sides" "$CONFORM" compare --tag base 1 2 --db "$db"
one_line_exit2 "no such run" "$CONFORM" compare 1 999 --db "$db"
one_line_exit2 "not a reference" "$CONFORM" compare 1 zzz --db "$db"
one_line_exit2 "no such tag" "$CONFORM" compare --tag nope --tag cand --db "$db"
# Without --kind the new side's kind is not known yet: no word, and no
# gap where it would be.
one_line_exit2 "no such tag, no kind" "$CONFORM" compare --tag base --tag nope --db "$db"
expect_grep "$TMP/err" "^conform: --tag nope: no finished run has this tag$" "no such tag, no kind: the message"
one_line_exit2 "bad --n" "$CONFORM" compare --n 2^x --db "$db"
one_line_exit2 "markdown and json" "$CONFORM" compare --markdown --json --db "$db"
# The two sides are read in the order of the names as conform shows them
# (made printable), not of the bytes stored: a control byte sorts before
# '?' and its printable form after "a?a", and pairing by the stored order
# called "a?a" both new and removed.
db="$TMP/order.db"
expect_exit 0 "a run for the order" -- "$CONFORM" --filter 'harness.pass*' --seed 1 --db "$db"
expect_exit 0 "another" -- "$CONFORM" --filter 'harness.pass*' --seed 2 --db "$db"
sql "$db" "update results set case_name = 'a' || char(1) || 'b' where run_id = 1 and case_name = 'harness.pass.f32';
	update results set case_name = 'a?a' where case_name = 'harness.pass.f64';
	delete from results where run_id = 2 and case_name = 'harness.pass.f32'"
expect_exit 0 "compare of names a control byte orders apart" -- "$CONFORM" compare --db "$db"
expect_grep "$TMP/out" "^status: 0 regressions, 0 fixed, 0 other changes, 0 new, 1 removed$" "a?a paired, a\\\\x01b removed"

# --- docs/ci.md: the gate's workflow --------------------------------------
# In the GitHub workflow a step after the run that fails the job (a
# regression, a failed case) must still compare and upload: each step that
# runs conform compare, db info or uploads the database says !cancelled().
awk '/^## GitLab CI/ { exit }
	/^      - / { if (step != "") print step; step = "" }
	/^      - |^        / { step = step $0 " " }
	END { if (step != "") print step }' "$top_srcdir/docs/ci.md" |
	grep -E 'conform compare|conform db info|upload-artifact' >"$TMP/ci-steps"
expect_eq "$(wc -l <"$TMP/ci-steps")" 6 "docs/ci.md: the GitHub steps that compare, inspect and upload"
expect_no_grep "$TMP/ci-steps" '^ *- (run|uses):' "docs/ci.md: every such step has an if"
checks=$((checks + 1))
grep -v '!cancelled()' "$TMP/ci-steps" >"$TMP/ci-bad" && fail "docs/ci.md: steps that a failure skips: $(cat "$TMP/ci-bad")"
finish
