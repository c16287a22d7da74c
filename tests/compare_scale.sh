#!/bin/sh
# compare_scale.sh - conform compare streams: two bench runs of N results
# each are compared in bounded memory (under 50 MB of maximum resident set,
# where holding both runs took about 3 KB a result), with the verdicts,
# the regression and the newest-of-a-key rule of a small comparison, and
# every energy change listed.
. "$(dirname "$0")/lib.sh"

command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: skipped"; exit 77; }

N=${COMPARE_SCALE_N:-200000}
LIMIT_KB=51200
# AddressSanitizer's shadow memory and quarantine add tens of MB whatever
# the runs: in such a build the bound is four times as wide, still far
# below what reading the runs whole takes (594 MB at 2x200k, more there).
if grep -q __asan_init "$CONFORM" 2>/dev/null; then
	LIMIT_KB=$((4 * LIMIT_KB))
fi
db="$TMP/scale.db"

# The maximum resident set of a command, in KB, into $TMP/rss; its output
# into $TMP/out and $TMP/err, its exit status returned.
max_rss() {
	if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$TMP/rss" true 2>/dev/null; then
		/usr/bin/time -f %M -o "$TMP/rss" "$@" >"$TMP/out" 2>"$TMP/err"
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1] + "/out", "w"), stderr=open(sys.argv[1] + "/err", "w"))
open(sys.argv[1] + "/rss", "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$TMP" "$@"
	else
		echo "neither /usr/bin/time nor python3: skipped"
		exit 77
	fi
}

expect_exit 0 "a new database" -- "$CONFORM" db info --db "$db"
# Runs 11 and 12 of N configurations each, over 64 problems: every 1000th
# slower in run 12 beyond the threshold and the noise.  The indexes compare
# does not use are dropped first, so that writing the rows takes a second,
# not ten.
sql "$db" "pragma journal_mode = off; pragma synchronous = off;
drop index results_case; drop index results_problem; drop index results_tuned;
drop index results_config; drop index results_device_case;
insert into runs (id, started_at, state, kind, git_revision)
	values (11, '2026-01-01T00:00:11Z', 'complete', 'bench', 'abc1234'),
	       (12, '2026-01-01T00:00:12Z', 'complete', 'bench', 'abc1234');" >/dev/null || fail "writing the runs"
sql "$db" "with recursive k(i) as (select 0 union all select i + 1 from k where i + 1 < $N)
insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed,
	duration_ms, created_at, median_ms, samples, ci_low_ms, ci_high_ms, spread, noise_met, timer, op)
select run, 'tune.device.v' || (i % 64), 'device', 'device.v' || (i % 64), 'b=' || i || ',op=sum', 'f32',
	1048576, 0, 'pass', 'PASS', 'completed-correct', 1.0, 'x', m, 100, m * 0.99, m * 1.01, 0.01, 1, 'cupti', 'sum'
from (select r.id as run, i, case when r.id = 12 and i % 1000 = 7 then 1.5 else 1.0 end as m
      from k, runs r where r.id in (11, 12));
-- A second result of one configuration in run 12, newer: it counts, a failure.
insert into results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status, observed,
	duration_ms, created_at, op)
values (12, 'tune.device.v0', 'device', 'device.v0', 'b=0,op=sum', 'f32', 1048576, 0, 'pass', 'FAIL',
	'completed-wrong', 1.0, 'x', 'sum');" || fail "writing the runs"
expect_eq "$(sql "$db" "select count(*) from results")" $((2 * N + 1)) "rows written"

checks=$((checks + 1))
max_rss "$CONFORM" compare 11 12 --db "$db"
rc=$?
[ "$rc" -eq 1 ] || { fail "compare of 2x$N: exit $rc, want 1"; sed 's/^/  | /' "$TMP/err" | tail -n 5 >&2; }
rss=$(tail -n 1 "$TMP/rss") # time says a failing command's status above
echo "compare of 2x$N results: $rss KB maximum resident set"
expect_eq "$([ "$rss" -lt "$LIMIT_KB" ] && echo bounded)" bounded "compare of 2x$N: $rss KB, want under $LIMIT_KB KB"
slower=$(( (N + 992) / 1000 ))
expect_grep "$TMP/out" "^status: 1 regression, 0 fixed, 0 other changes, 0 new, 0 removed$" "the newest result of a key counts"
expect_grep "$TMP/out" "^  regression +device\.v0 f32 sum n=2\^20 b=0 +PASS -> FAIL" "the regression listed"
expect_grep "$TMP/out" "^timing: $((N - 1)) configurations timed in both, threshold 5%: $slower slower, 0 faster, $((N - 1 - slower)) same$" "verdict counts"
expect_eq "$(grep -c '^  SLOWER  ' "$TMP/out")" "$slower" "every slower configuration listed"

# Energy: every 1000th configuration (another) spends 20 % more in run 12,
# its time the same; the rest measured none.  The items a listing pass
# replays from memory are those with news: a SAME timing with more energy
# is news, and is listed though the SAME ones no longer fit.
sql "$db" "update results set energy_j = case run_id when 12 then 0.0012 else 0.001 end, energy_uncertainty = 0.01
	where cast(substr(params, 3, instr(params, ',') - 3) as integer) % 1000 = 3" || fail "writing the energy"
more=$(( (N + 996) / 1000 ))
expect_exit 1 "compare of 2x$N with energy" -- "$CONFORM" compare 11 12 --db "$db"
expect_grep "$TMP/out" "^energy: $more more, 0 less, 0 same, $((N - 1 - more)) not measured$" "energy counts"
expect_eq "$(grep -c '^  more    ' "$TMP/out")" "$more" "every configuration with more energy listed"
finish
