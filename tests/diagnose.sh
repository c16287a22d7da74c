#!/bin/sh
# diagnose.sh - failures that explain themselves, on host cases (no GPU):
#  - run --shrink finds the smallest failing size of harness.wrong_above
#    (a planted bug above 1000 elements): 1001, passing at 1000, and the
#    command it prints runs that case (exit 1) and, at 1000, passes;
#  - the pattern across sizes of harness.wrong_unaligned (wrong when n is
#    not a multiple of 4) is said, and none for a bug no property splits;
#  - both reach the console, the database (shrunk, repro, pattern), JSON
#    (a "diagnosis" line) and JUnit (the failure's message);
#  - a tune of harness.spin with a bug planted at vec=4
#    (CONFORM_TEST_WRONG_VEC) says the tunable value its failures go with;
#  - run --sanitize TOOL runs each case under the sanitizer it finds
#    (CONFORM_SANITIZER: here a stand-in that writes a recorded
#    compute-sanitizer log where --log-file says, then runs the worker),
#    a report makes a passing case FAIL as sanitizer-finding with the
#    report as its message, a clean log leaves it PASS saying so, memcheck
#    gives the worker --exact-buffers, deadlines grow, and a tool that
#    fails leaves the case an ERROR; bad tool names are one line, exit 2.
. "$(dirname "$0")/lib.sh"
DATA="$top_srcdir/tests/data/sanitizer"

cat >"$TMP/d.suite" <<'EOF'
case harness.above.{n} variant=harness.wrong_above dtype=i32 n=1|31|32|33|255|257|4097
case harness.unal.{n} variant=harness.wrong_unaligned dtype=f64 n=1|4|31|32|33|256|257|4096
EOF

# --- shrinking and patterns
expect_exit 1 "a run with planted failures, shrunk" -- "$CONFORM" run --suite "$TMP/d.suite" \
	--filter 'harness.*' --shrink --seed 5 --db "$TMP/d.db" --junit "$TMP/d.xml"
cp "$TMP/out" "$TMP/shrunk.out"
expect_grep "$TMP/shrunk.out" '^SHRUNK  harness\.above\.4097: smallest failing size n = 1001 \(passes at n = 1000\)' \
	"the smallest failing size of a bug planted above 1000"
expect_grep "$TMP/shrunk.out" "reproduce: conform run --suite $TMP/d.suite --filter harness.above.4097 --n 1001 --seed 5\$" \
	"the command that reproduces it"
expect_grep "$TMP/shrunk.out" '^PATTERN harness\.unal\.1: fails only at sizes that are not a multiple of 4 .*\(fails at 1, 31, 33, 257; passes at 4, 32, 256, 2\^12\)' \
	"the pattern of a bug at sizes not a multiple of 4"
expect_no_grep "$TMP/shrunk.out" '^PATTERN harness\.above' "no pattern where no property splits the sizes"
expect_eq "$(sql "$TMP/d.db" "SELECT shrunk FROM results WHERE case_name = 'harness.above.4097'")" \
	"smallest failing size n = 1001 (passes at n = 1000); 36 probes" "the database keeps the shrunk case"
expect_eq "$(sql "$TMP/d.db" "SELECT count(*) FROM results WHERE pattern LIKE 'fails only at sizes that are not a multiple of 4%'")" \
	4 "every failing case of the pattern's group keeps it"
expect_eq "$(sql "$TMP/d.db" "SELECT count(*) FROM results WHERE status = 'PASS' AND (shrunk IS NOT NULL OR pattern IS NOT NULL)")" \
	0 "a passing case keeps nothing"
expect_eq "$(sql "$TMP/d.db" "SELECT count(*) FROM results")" 15 "the probes are not results of the run"
repro=$(sql "$TMP/d.db" "SELECT repro FROM results WHERE case_name = 'harness.above.4097'")
expect_exit 1 "the reproducing command fails" -- sh -c "cd '$top_builddir' && CONFORM_DB='$TMP/r.db' ./$repro"
expect_grep "$TMP/out" '^FAIL    harness\.above\.4097\.n1001: ' "it runs the shrunk case"
expect_exit 0 "just below it passes" -- sh -c \
	"cd '$top_builddir' && CONFORM_DB='$TMP/r.db' ./$(echo "$repro" | sed 's/--n 1001/--n 1000/')"
grep -o 'message="[^"]*"' "$TMP/d.xml" | grep 'harness.above\|n = 1001' >"$TMP/junit-msg" || true
expect_grep "$TMP/d.xml" 'smallest failing size n = 1001 \(passes at n = 1000\); 36 probes; reproduce: conform run' \
	"JUnit's failure message carries the shrunk case"

expect_exit 1 "the same run as JSON" -- "$CONFORM" run --suite "$TMP/d.suite" --filter 'harness.*' --shrink \
	--seed 5 --db "$TMP/j.db" --json
python3 - "$TMP/out" >"$TMP/py" 2>&1 <<'EOF' || fail "JSON diagnosis lines: $(cat "$TMP/py")"
import json, sys
d = [json.loads(l)['diagnosis'] for l in open(sys.argv[1]) if '"diagnosis"' in l]
above = [x for x in d if x['case'] == 'harness.above.4097']
assert len(above) == 1, above
a = above[0]
assert (a['n'], a['cols'], a['pass_n'], a['probes'], a['cut_short']) == (1001, 0, 1000, 36, False), a
assert a['repro'].endswith('--n 1001 --seed 5'), a['repro']
unal = [x for x in d if x['case'].startswith('harness.unal.')]
assert len(unal) == 4 and all(x['pattern'].startswith('fails only at sizes that are not a multiple of 4') for x in unal), unal
assert all(x['shrunk'] == 'smallest failing size n = 1; 0 probes' for x in unal), unal
results = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"case"')]
assert len(results) == 15 and all(r['sanitizer'] is None for r in results)
EOF

expect_exit 1 "without --shrink, no search" -- "$CONFORM" run --suite "$TMP/d.suite" --filter 'harness.above.*' \
	--seed 5 --db "$TMP/n.db"
expect_no_grep "$TMP/out" '^SHRUNK' "a suite run shrinks only when asked"
expect_eq "$(sql "$TMP/n.db" "SELECT count(*) FROM results WHERE shrunk IS NOT NULL")" 0 "nothing shrunk stored"
one_line_exit2 "--n over nothing" "$CONFORM" run --n 5 --db "$TMP/n.db"
one_line_exit2 "--dtype without --kernel" "$CONFORM" run --filter 'harness.*' --dtype f32 --db "$TMP/n.db"

# --- a tune: the tunable values its failures go with
CONFORM_TEST_WRONG_VEC=4 expect_exit 1 "a tune with a bug in one tunable value" -- "$CONFORM" tune harness.spin \
	--n 2^10 --dtype f32 --max-time 0.01 --min-samples 3 --db "$TMP/t.db"
expect_grep "$TMP/out" '^  harness\.spin fails for vec = 4 \(every configuration with it\); passes with vec ∈ \{1, 2\}$' \
	"the tune says which tunable value fails"
expect_exit 0 "a tune without failures" -- "$CONFORM" tune harness.spin --n 2^10 --dtype f32 \
	--max-time 0.01 --min-samples 3 --db "$TMP/t2.db"
expect_no_grep "$TMP/out" 'fails for|fails at' "says nothing of failures it did not see"

# --- the sanitizer, through a stand-in that writes a recorded log
sanitizer_stand_in "$TMP/fake-sanitizer"
export CONFORM_SANITIZER="$TMP/fake-sanitizer" FAKE_ARGS="$TMP/args"

FAKE_LOG="$DATA/memcheck_writes_past_out.txt" expect_exit 1 "a report fails a passing case" -- \
	"$CONFORM" run --filter 'harness.pass.f32' --sanitize memcheck --seed 3 --db "$TMP/s.db" --json \
	--junit "$TMP/s.xml"
cp "$TMP/err" "$TMP/s.err"
expect_grep "$TMP/s.err" "^conform: each case alone under $TMP/fake-sanitizer --tool memcheck, its deadlines 20 times longer" \
	"the run says the tool and the longer deadlines"
expect_grep "$TMP/s.err" '^FAIL    harness\.pass\.f32: memcheck: Invalid __global__ write of size 4 bytes in writes_past_out at thread \(0,0,0\) block \(0,0,0\)' \
	"the report is the case's message"
expect_eq "$(sql "$TMP/s.db" "SELECT status || ' ' || observed FROM results")" "FAIL sanitizer-finding" \
	"stored as a sanitizer finding"
expect_grep "$TMP/args" '--tool memcheck --log-file .* --print-limit 16 --show-backtrace no .*conform-worker --device 0 .*--exact-buffers$' \
	"memcheck's worker gets --exact-buffers"
python3 - "$TMP/out" >"$TMP/py" 2>&1 <<'EOF' || fail "JSON sanitizer field: $(cat "$TMP/py")"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"case"')]
assert len(r) == 1 and r[0]['observed'] == 'sanitizer-finding', r
assert r[0]['sanitizer'].startswith('memcheck: Invalid __global__ write of size 4 bytes'), r[0]['sanitizer']
EOF
expect_grep "$TMP/s.xml" '<failure type="FAIL" message="memcheck: Invalid __global__ write' "JUnit's failure"

: >"$TMP/args"
FAKE_LOG="$DATA/clean.txt" expect_exit 0 "a clean log leaves a pass" -- \
	"$CONFORM" run --filter 'harness.pass.f32' --sanitize racecheck --seed 3 --db "$TMP/s.db" -v
expect_grep "$TMP/out" '^PASS    harness\.pass\.f32: racecheck: no errors' "and says the tool found nothing"
expect_no_grep "$TMP/args" 'exact-buffers' "only memcheck's worker goes without guard zones"
expect_eq "$(sql "$TMP/s.db" "SELECT sanitizer FROM results ORDER BY id DESC LIMIT 1")" "racecheck: no errors" \
	"stored as what the tool said"

FAKE_LOG="$DATA/no_cuda_call.txt" expect_exit 1 "a tool that fails" -- \
	"$CONFORM" run --filter 'harness.pass.f32' --sanitize initcheck --seed 3 --db "$TMP/s.db"
expect_grep "$TMP/out" '^ERROR   harness\.pass\.f32: compute-sanitizer failed, so the case was not checked by it: ' \
	"leaves the case an ERROR that says so"

one_line_exit2 "an unknown tool" "$CONFORM" run --filter 'harness.pass.f32' --sanitize leakcheck --db "$TMP/s.db"
one_line_exit2 "no tool" "$CONFORM" run --filter 'harness.pass.f32' --sanitize none --db "$TMP/s.db"
CONFORM_SANITIZER="$TMP" one_line_exit2 "CONFORM_SANITIZER not a program" \
	"$CONFORM" run --filter 'harness.pass.f32' --sanitize memcheck --db "$TMP/s.db"

finish
