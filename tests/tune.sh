#!/bin/sh
# tune.sh - conform tune, best and history end to end, on the host-only
# harness.spin (a timed "kernel" whose cost is a known bowl over block,
# items and vec, optimum block=512,items=4,vec=2) with harness.baseline and
# harness.copy as its references: what is stored, what is printed, resuming
# from the database, --fresh, anneal against exhaustive, the progress line,
# hangs and crashes, and the usage errors.
. "$(dirname "$0")/lib.sh"

# Short measurements: a spin evaluation then takes about a millisecond.
FAST="--min-samples 5 --max-noise 0.02 --max-time 0.01 --timeout 5"
A="$TMP/exhaustive.db"

# Exhaustive: every configuration measured and stored, the best marked.
expect_exit 0 "exhaustive" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --strategy exhaustive $FAST --db "$A"
cp "$TMP/out" "$TMP/exhaustive.out"
expect_grep "$TMP/out" "^n=2\^16 f32 sum$" "sweep title"
expect_grep "$TMP/out" "references: harness.copy [0-9.]+ GB/s \(measured now\); baseline harness.baseline [0-9.]+ µs" "references line"
expect_grep "$TMP/out" "median \(µs\) +GB/s +% copy +× base +noise +spread +status" "table header"
expect_grep "$TMP/out" "^\*[ =]harness.spin +block=512,items=4,vec=2 +[0-9.]+~? +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+% +(-|±[0-9.]+%) +PASS(: tied, median in \[[0-9.]+, [0-9.]+\] µs)?$" "the optimum is marked best"
expect_eq "$(grep -c '^\*' "$TMP/out")" 1 "one best per variant"
expect_grep "$TMP/out" "block=1024,items=16,vec=4 +- +- +- +- +- +- +SKIP$" "refused configuration shown as SKIP"
expect_eq "$(tail -n 1 "$TMP/out")" "73 passed, 0 failed, 4 skipped" "summary line last"
expect_eq "$(sql "$A" "select count(*) from results where variant = 'harness.spin'")" 75 "every configuration stored"
expect_eq "$(sql "$A" "select count(*) from results where variant = 'harness.spin' and status = 'SKIP' and observed = 'invalid'")" 4 "refused configurations stored as invalid"
expect_eq "$(sql "$A" "select count(*) from results where variant = 'harness.spin' and status = 'PASS' and median_ms > 0 and samples >= 5 and gbps > 0 and op = 'sum'")" 71 "timings stored"
expect_eq "$(sql "$A" "select params from results where variant = 'harness.baseline'")" "op=sum" "baseline at its defaults"
expect_eq "$(sql "$A" "select count(*) from device_bandwidth where variant = 'harness.copy' and device_id is null and gbps > 0 and bytes = 2 * 4 * 4194304")" 1 "copy bandwidth stored"
expect_eq "$(sql "$A" "select count(*) || ' ' || min(state) from runs")" "1 complete" "one run row"
expect_eq "$(sql "$A" "select passed || ' ' || failed || ' ' || skipped from runs")" "73 0 4" "run tallies"
best_ms=$(sql "$A" "select min(median_ms) from results where variant = 'harness.spin' and status = 'PASS'")

# Resuming: nothing is measured again, the same table comes back.
expect_exit 0 "resume" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --db "$A"
expect_grep "$TMP/out" "^76 evaluations: 0 measured, 76 from the database$" "resume measures nothing"
expect_grep "$TMP/out" "references: harness.copy [0-9.]+ GB/s \(stored\)" "copy bandwidth reused"
expect_grep "$TMP/out" "^\*[ =]harness.spin +block=512,items=4,vec=2 " "resumed best"
expect_eq "$(tail -n 1 "$TMP/out")" "72 passed, 0 failed, 4 skipped" "resumed summary"
expect_eq "$(sql "$A" "select count(*) from results")" 77 "no rows added on resume"
expect_eq "$(sql "$A" "select count(*) from runs")" 2 "the resumed run is recorded"
expect_eq "$(sql "$A" "select passed || ' ' || failed || ' ' || skipped from runs where id = 2")" "72 0 4" \
	"the resumed run's tallies: what it found"

# --fresh measures again (the copy bandwidth stays: once per device).
expect_exit 0 "fresh" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --fresh $FAST --db "$A"
expect_grep "$TMP/out" "^76 evaluations: 76 measured, 0 from the database$" "fresh measures all"
expect_eq "$(sql "$A" "select count(*) from results")" 153 "fresh rows added"
expect_eq "$(sql "$A" "select count(*) from device_bandwidth")" 1 "copy measured once"
expect_no_grep "$TMP/out" "more than one timer" "one timer: no warning"
# A stored result timed another way (as by CUDA events where CUPTI did not
# load) comes back with its timer, and the table says the medians mix two.
sql "$A" "update results set timer = 'events' where id = (select max(id) from results where variant = 'harness.spin' and samples is not null)" >/dev/null
expect_exit 0 "resumed, two timers" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --db "$A"
expect_grep "$TMP/out" "^  ! timed by more than one timer \(events, host\): medians of different timers are not comparable$" "mixed timers said"
sql "$A" "update results set timer = 'host' where timer = 'events'" >/dev/null

# Machine-readable output: one row per evaluation, the summary apart.
expect_exit 0 "json" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --db "$A" --json
expect_eq "$(grep -c '^{"n":65536,"dtype":"f32","op":"sum","cols":0,"variant":"harness' "$TMP/out")" 76 "json rows"
expect_grep "$TMP/out" '"variant":"harness.spin","role":"tuned","config":"block=512,items=4,vec=2","status":"PASS".*"best":true,"tied":(true|false),"reused":true' "json best row"
expect_grep "$TMP/out" '"variant":"harness.spin","role":"tuned","config":"block=512,items=4,vec=2",.*"throttled":0,"timer":"host","samples":' "json best row timed by the host clock"
expect_grep "$TMP/out" '^\{"summary":\{"passed":72,"failed":0,"skipped":4,"evaluations":76,"reused":76' "json summary"
expect_eq "$(tail -n 1 "$TMP/err")" "72 passed, 0 failed, 4 skipped" "summary on stderr with --json"
expect_exit 0 "csv" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --db "$A" --csv
expect_eq "$(head -n 1 "$TMP/out")" "n,dtype,op,cols,variant,role,config,status,observed,median_us,gbps,pct_copy,x_baseline,noise,spread,ci_low_us,ci_high_us,noise_met,throttled,timer,samples,best,tied,reused,message,device,energy_j,power_w,power_sampled_w,energy_uncertainty,energy_window_s,energy_launches,sm_mhz,mem_mhz,throttle_reasons,pareto" "csv header"
expect_grep "$TMP/out" '^65536,f32,sum,0,harness.spin,tuned,"block=512,items=4,vec=2",PASS,completed-correct,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,[01],[0-9]+,host,[0-9]+,1,[01],1,,,,,,,,,,,,$' "csv best row: no energy on the host, empty cells"
expect_eq "$(wc -l <"$TMP/out")" 77 "csv rows"

# Anneal with under 30 % of exhaustive's 71 evaluations finds a
# configuration within 3 % of the exhaustive best (judged by exhaustive's
# own measurement of it), and does so reproducibly for its seed.
B="$TMP/anneal.db"
expect_exit 0 "anneal" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --strategy anneal --budget 21 --seed 5 $FAST --db "$B"
expect_eq "$(sql "$B" "select count(*) from results where variant = 'harness.spin' and observed <> 'invalid'")" 21 "anneal spends its budget"
picked=$(sql "$B" "select params from best_configs where variant = 'harness.spin'")
picked_ms=$(sql "$A" "select median_ms from results where run_id = 1 and variant = 'harness.spin' and params = '$picked'")
checks=$((checks + 1))
awk -v a="$picked_ms" -v b="$best_ms" 'BEGIN { exit !(a != "" && a <= 1.03 * b) }' ||
	fail "anneal picked $picked at $picked_ms ms; exhaustive best $best_ms ms"
C="$TMP/anneal2.db"
"$CONFORM" tune harness.spin --n 2^16 --dtype f32 --strategy anneal --budget 21 --seed 5 $FAST --db "$C" >/dev/null 2>&1
# Its walk depends on measured costs, which are noisy: the seed fixes where
# it starts (and test_tune_search checks whole walks on exact costs).
first="select params from results where variant = 'harness.spin' order by id limit 1"
expect_eq "$(sql "$C" "$first")" "$(sql "$B" "$first")" "anneal starts where its seed says"
expect_exit 0 "anneal resumed" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 --strategy anneal --budget 21 --seed 5 $FAST --db "$B"
expect_grep "$TMP/out" "evaluations: 0 measured" "anneal resumes from the database"
expect_exit 0 "random" -- "$CONFORM" tune harness.spin --n 2^12 --dtype f32 --strategy random --budget 10 --seed 3 $FAST --db "$B"
expect_eq "$(sql "$B" "select count(distinct params) from results where variant = 'harness.spin' and n = 4096 and observed <> 'invalid'")" 10 "random draws without replacement"

# The progress line, drawn only on a terminal (script(1) lends it one),
# counts what the budget counts: never past its total, and ending there.
# progress WHAT ARGS...: tune under script(1), checking its counts.
progress() {
	what=$1; shift
	script -qec "\"$CONFORM\" tune harness.spin --dtype f32 $* $FAST >/dev/null" /dev/null >"$TMP/tty" 2>&1
	tr '\r' '\n' <"$TMP/tty" | grep -Eo ' [0-9]+/[0-9]+' | tr -d ' ' >"$TMP/counts"
	checks=$((checks + 1))
	awk -F/ '$1 > $2 { bad = 1 } END { exit bad || NR == 0 }' "$TMP/counts" ||
		fail "$what: progress past its total or not drawn: $(tr '\n' ' ' <"$TMP/counts")"
	last=$(tail -n 1 "$TMP/counts")
	expect_eq "${last%/*}" "${last#*/}" "$what: progress ends at its total"
}
if script -qec true /dev/null >/dev/null 2>&1; then
	# Seed 1's random draws meet two refused configurations on the way to
	# its 6 measured ones: the line once read "8/6".
	progress "random" --n 2^12 --strategy random --budget 6 --seed 1 --db "$TMP/progress.db"
	expect_eq "$(sql "$TMP/progress.db" "select count(*) from results where observed = 'invalid'")" 2 \
		"the random search met refused configurations"
	# Exhaustive, answered from the database: 71 measured of 75, 4 refused.
	cp "$A" "$TMP/progress2.db"
	progress "exhaustive" --n 2^16 --db "$TMP/progress2.db"
else
	echo "script(1) not found: the progress line is not tested"
fi

# best and history answer from the database alone.
expect_exit 0 "best" -- "$CONFORM" best harness.spin --n 2^16 --db "$A"
expect_grep "$TMP/out" "^host +harness.spin +2\^16 +f32 +sum +block=512,items=4,vec=2 " "best answer"
expect_no_grep "$TMP/out" "nearest" "exact size says nothing more"
expect_exit 0 "best nearest" -- "$CONFORM" best harness.spin --n 2^20 --db "$A"
expect_eq "$(head -n 1 "$TMP/out")" "no result at n=2^20; nearest tuned size 2^16" "nearest size note"
expect_exit 0 "best glob" -- "$CONFORM" best 'harness.*' --n 65536 --dtype f32 --op sum --json --db "$A"
expect_grep "$TMP/out" '^\{"device":"host","variant":"harness.spin","dtype":"f32","op":"sum","n":65536,"cols":0,"requested_n":65536,"exact":true,"config":"block=512,items=4,vec=2","params":"block=512,items=4,vec=2,op=sum"' "best across variants, json"
expect_exit 0 "best csv" -- "$CONFORM" best harness.spin --n 2^16 --csv --db "$A"
expect_eq "$(wc -l <"$TMP/out")" 2 "best csv: header and one row"
expect_exit 0 "history" -- "$CONFORM" history harness.spin --db "$A"
expect_grep "$TMP/out" "^host f32 sum n=2\^16$" "history group"
expect_eq "$(grep -c ' harness.spin  *block=' "$TMP/out")" 2 "a line per run that measured (not the resumed ones)"
expect_grep "$TMP/out" "[-+][0-9.]+%" "history shows the change"
expect_exit 0 "history json" -- "$CONFORM" history harness.spin --n 2^16 --json --db "$A"
expect_eq "$(grep -c '"run_id":' "$TMP/out")" 2 "history json lines"
# --gpu NAME filters by the device's name ("host": no GPU); --device, a GPU
# ordinal in run and tune, is refused by the lookups with a pointer to --gpu.
expect_exit 0 "best --gpu host" -- "$CONFORM" best harness.spin --n 2^16 --gpu host --db "$A"
expect_grep "$TMP/out" "^host +harness.spin +2\^16 " "best --gpu host: the host's result"
expect_exit 0 "best --gpu glob" -- "$CONFORM" best harness.spin --n 2^16 --gpu 'h*' --db "$A"
one_line_exit2 "best --gpu another" "$CONFORM" best harness.spin --n 2^16 --gpu 'NVIDIA*' --db "$A"
expect_grep "$TMP/err" "with gpu=NVIDIA\*" "best --gpu another: the filter named"
for c in best history export; do
	one_line_exit2 "$c --device 0" "$CONFORM" "$c" harness.spin --device 0 --json --db "$A"
	expect_grep "$TMP/err" "^conform: $c: --device takes a GPU ordinal \(run, tune\); to filter by GPU name use --gpu NAME$" \
		"$c --device 0: the message"
done
expect_exit 0 "history --gpu host" -- "$CONFORM" history harness.spin --gpu host --db "$A"
expect_exit 0 "export --gpu host" -- "$CONFORM" export harness.spin --gpu host --json --db "$A"
expect_grep "$TMP/out" '"variant":"harness.spin"' "export --gpu host: the host's rows"
# Their columns are as wide as their widest entry: the H100 database's
# device.* configurations and softmax.registers outgrow any fixed width.
H="$TMP/h100.db"
gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | sql "$H" || fail "cannot load the H100 database"
for k in 'device.*' 'softmax.*'; do
	expect_exit 0 "history $k" -- "$CONFORM" history "$k" --db "$H"
	expect_aligned "$TMP/out" "^  date  " "history $k"
	expect_exit 0 "best $k" -- "$CONFORM" best "$k" --n 2^12 --db "$H"
	expect_aligned "$TMP/out" "^device  " "best $k"
done
# Its results were stored before the interval was (migration 5): what is
# not stored reads as missing in every query, never as the median's
# zero-width interval (the best query once coalesced it, the result rows
# did not); the rank then takes the median.
O="$TMP/old-schema.db"
cp "$H" "$O" && sql "$O" "UPDATE results SET ci_low_ms = NULL, ci_high_ms = NULL, spread = NULL, noise_met = NULL, timer = NULL"
expect_exit 0 "history of results without an interval" -- "$CONFORM" history 'device.*' --json --db "$O"
expect_grep "$TMP/out" '"ci_low_us":null,"ci_high_us":null,"noise_met":null' "history: no interval, no noise verdict"
expect_no_grep "$TMP/out" '"noise_met":true' "history: no noise verdict invented"
expect_grep "$TMP/out" '"timer":"events"' "history: timed before the timer was stored: by events"
expect_exit 0 "best of results without an interval" -- "$CONFORM" best 'device.atomic' --n 2^24 --json --db "$O"
fastest=$(sql "$O" "select params from results where variant = 'device.atomic' and n = 16777216 and dtype = 'f32'
	and status = 'PASS' and median_ms is not null order by median_ms, id limit 1")
expect_grep "$TMP/out" "\"params\":\"$fastest\"" "best: the rank takes the median when there is no interval"

# A hang and a crash are results like any other; the next evaluation gets a
# fresh worker (the baseline of the second size runs after the first crash).
D="$TMP/faults.db"
expect_exit 1 "crash" -- "$CONFORM" tune harness.crash --n 100,200 --dtype i32 $FAST --db "$D"
expect_eq "$(sql "$D" "select count(*) from results where variant = 'harness.crash' and status = 'CRASH'")" 2 "crashes stored"
expect_eq "$(sql "$D" "select count(*) from results where variant = 'harness.baseline' and n = 200 and status = 'PASS'")" 1 "runs on after a crash"
expect_grep "$TMP/out" "harness.crash +\(default\) .* CRASH: worker (killed by signal|exited with status 1)" "crash in the table (ASan turns the signal into exit 1)"
expect_eq "$(tail -n 1 "$TMP/out")" "3 passed, 2 failed, 0 skipped" "crash summary"
expect_exit 1 "hang" -- "$CONFORM" tune harness.hang --n 10 --dtype f32 --min-samples 5 --max-time 0.01 --timeout 0.5 --db "$D"
# A host variant has no energy burst: its deadline is --timeout's alone.
expect_grep "$TMP/out" "TIMEOUT: no result within 0\.5 s; worker killed" "a host variant's deadline without the burst's allowance"
expect_eq "$(sql "$D" "select status || ' ' || observed from results where variant = 'harness.hang'")" "TIMEOUT hung" "hang stored as TIMEOUT"

# Usage errors: one line, exit 2, nothing stored.
E="$TMP/errors.db"
one_line_exit2 "tune without variant" "$CONFORM" tune --n 2^10 --dtype f32 --db "$E"
one_line_exit2 "tune without --n" "$CONFORM" tune harness.spin --dtype f32 --db "$E"
one_line_exit2 "tune without --dtype" "$CONFORM" tune harness.spin --n 2^10 --db "$E"
one_line_exit2 "bad --n" "$CONFORM" tune harness.spin --n 2^10,x --dtype f32 --db "$E"
expect_grep "$TMP/err" "--n: expected sizes as decimal or 2\^K" "bad --n message"
one_line_exit2 "bad --dtype" "$CONFORM" tune harness.spin --n 2^10 --dtype f16 --db "$E"
one_line_exit2 "bad --op" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --op prod --db "$E"
one_line_exit2 "bad --strategy" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --strategy greedy --db "$E"
one_line_exit2 "budget and time" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --budget 3 --time 1 --db "$E"
one_line_exit2 "zero budget" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --budget 0 --db "$E"
one_line_exit2 "csv and json" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --csv --json --db "$E"
one_line_exit2 "bad --max-noise" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --max-noise 2 --db "$E"
one_line_exit2 "bad --tag" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --tag "a b" --db "$E"
one_line_exit2 "empty --tag" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --tag "" --db "$E"
one_line_exit2 "timeout under max-time" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --timeout 0.5 --db "$E"
one_line_exit2 "unknown flag" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --bogus --db "$E"
one_line_exit2 "missing value" "$CONFORM" tune harness.spin --n 2^10 --dtype f32 --budget
one_line_exit2 "unsupported dtype" "$CONFORM" tune harness.spin --n 2^10 --dtype u32 --db "$E"
one_line_exit2 "unknown kernel" "$CONFORM" tune harness.nope --n 2^10 --dtype f32 --db "$E"
expect_grep "$TMP/err" "unknown variant 'harness.nope'" "unknown kernel message"
one_line_exit2 "glob without tunables" "$CONFORM" tune 'harness.pa*' --n 2^10 --dtype f32 --db "$E"
one_line_exit2 "bench with a problem" "$CONFORM" bench --n 2^10 --db "$E"
[ ! -e "$E" ] || fail "a usage error created the database"
one_line_exit2 "best without --n" "$CONFORM" best harness.spin --db "$A"
one_line_exit2 "best without kernel" "$CONFORM" best --n 2^10 --db "$A"
one_line_exit2 "best unknown kernel" "$CONFORM" best nope.x --n 2^10 --db "$A"
expect_grep "$TMP/err" "no tuning results for 'nope.x' \(tuned: harness.baseline, harness.spin\)" "best unknown kernel message"
one_line_exit2 "best filtered out" "$CONFORM" best harness.spin --n 2^10 --dtype f64 --db "$A"
one_line_exit2 "best no database" "$CONFORM" best harness.spin --n 2^10 --db "$TMP/none.db"
[ ! -e "$TMP/none.db" ] || fail "best created a database"
"$CONFORM" db info --db "$TMP/empty.db" >/dev/null
one_line_exit2 "best empty database" "$CONFORM" best harness.spin --n 2^10 --db "$TMP/empty.db"
expect_grep "$TMP/err" "empty.db: no tuning results yet" "empty database message"
one_line_exit2 "history empty database" "$CONFORM" history harness.spin --db "$TMP/empty.db"
one_line_exit2 "history unknown kernel" "$CONFORM" history 'nope.*' --db "$A"
one_line_exit2 "history bad flag" "$CONFORM" history harness.spin --n 2^x --db "$A"
expect_exit 0 "tune --help" -- "$CONFORM" tune --help
expect_grep "$TMP/out" "--strategy S" "tune --help lists options"

# Without a GPU the device family cannot be tuned: exit 77, with the reason.
if ! gpu_present; then
	expect_grep "$TMP/exhaustive.out" "^host \\(no GPU\\)" "a tune without a GPU says so"
	expect_exit 77 "bench without a GPU" -- "$CONFORM" bench --db "$TMP/bench.db"
	expect_eq "$(tail -n 1 "$TMP/err" | cut -c1-9)" "conform: " "bench says why"
else
	echo "a GPU is present: bench is not run here (it takes minutes)"
fi
# scripts/compare-tunes (gpu-acceptance's baseline-tune): the same random
# search twice asks the same questions; a planted change to one is found.
for t in 1 2; do
	"$CONFORM" tune harness.spin --n 2^10 --dtype f32 --strategy random --budget 4 --seed 3 \
		--min-samples 3 --max-time 0.01 --db "$TMP/same-$t.db" >/dev/null 2>&1 || fail "random tune $t"
done
expect_exit 0 "compare-tunes: the same search" -- "$top_srcdir/scripts/compare-tunes" "$TMP/same-1.db" "$TMP/same-2.db"
expect_grep "$TMP/out" "^SAME .*evaluations asked in the same order" "compare-tunes: same order"
sql "$TMP/same-2.db" "UPDATE results SET status = 'FAIL' WHERE id = (SELECT max(id) FROM results WHERE variant = 'harness.spin')"
expect_exit 1 "compare-tunes: a planted difference" -- "$top_srcdir/scripts/compare-tunes" "$TMP/same-1.db" "$TMP/same-2.db"
expect_grep "$TMP/out" "^DIFFERENT .*first difference|^  first difference" "compare-tunes: the difference named"
finish
