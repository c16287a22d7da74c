#!/bin/sh
# tui_energy.sh - energy in the interface, without a GPU: the H100 tuning
# database (tests/data) once as it is, stored before conform measured energy,
# and once with energy given by SQL to device.atomic at 2^24 (every run's
# results: 400 W over each median, but 300 W for one configuration, 228 W for
# a slow one and 360 W for the fastest in run 2, none for one result of run
# 5; and at 2^20, 400 W for every configuration, a front of its own), driven
# in tmux at 80x24 and
# 200x50.  Without energy every table reads as before (no mJ, W or P
# column, tests/tui_results.sh checks the rest); with it the Results pane
# and the best view show mJ and W, "–" where a row has none, P on the
# time/energy Pareto front of a variant's configurations at one problem; e
# in the best view ranks by time, energy and edp in turn, each with its own
# best; the detail of a result says what it spent, part by part, "not
# measured" where it was not; a comparison judges energy apart from time
# (conform compare's verdict: a column, the counts, the item's line) and an
# item says what each side spent; conform tui --objective starts with one.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui_lib.sh"

plain="$TMP/plain.db"
tui_fixture "$plain"
db="$TMP/energy.db"
tui_fixture "$db"
"$CONFORM" db info --db "$db" >/dev/null || { fail "conform db info: migrating the H100 database"; exit 1; }
atomic="variant = 'device.atomic' AND n = 16777216 AND median_ms IS NOT NULL"
sql "$db" "BEGIN;
UPDATE results SET energy_j = median_ms * 1e-3 * 400, power_w = 400, power_sampled_w = 392,
	energy_uncertainty = 0.01, energy_window_s = 0.3, energy_launches = 12000, sm_mhz = 1980,
	mem_mhz = 2619, throttle_reasons = 'none' WHERE $atomic;
-- another problem, its own front: at 2^20, 400 W for all
UPDATE results SET energy_j = median_ms * 1e-3 * 400, power_w = 400
	WHERE variant = 'device.atomic' AND n = 1048576 AND median_ms IS NOT NULL;
-- the most frugal, and slow
UPDATE results SET energy_j = median_ms * 1e-3 * 228, power_w = 228, power_sampled_w = 230
	WHERE $atomic AND params = 'block=64,items=4,vec=4,grid=0,evict_first=0,op=sum';
-- the least energy x time
UPDATE results SET energy_j = median_ms * 1e-3 * 300, power_w = 300, power_sampled_w = 296,
	throttle_reasons = 'sw_power_cap,hw_slowdown'
	WHERE $atomic AND params = 'block=256,items=8,vec=4,grid=0,evict_first=0,op=sum';
-- the fastest in run 2 at 360 W: run 5's (400 W) spends 11.7 % more
UPDATE results SET energy_j = median_ms * 1e-3 * 360, power_w = 360
	WHERE run_id = 2 AND $atomic AND params = 'block=1024,items=2,vec=4,grid=0,evict_first=0,op=sum';
-- a result of run 5 without energy
UPDATE results SET energy_j = NULL, power_w = NULL, power_sampled_w = NULL, energy_uncertainty = NULL,
	energy_window_s = NULL, energy_launches = NULL, sm_mhz = NULL, mem_mhz = NULL, throttle_reasons = NULL
	WHERE run_id = 5 AND $atomic AND params = 'block=1024,items=8,vec=4,grid=0,evict_first=1,op=sum';
COMMIT;" || { fail "giving device.atomic energy"; exit 1; }
missing="(–|-)"
# Each problem's best by time, the rule of every "best" (tests/tui_results.sh).
time_best=$(sql "$db" "select params from results where $atomic and status = 'PASS'
	order by coalesce(ci_high_ms, median_ms), median_ms, id limit 1" | sed 's/,op=sum$//')
frugal="block=64,items=4,vec=4,grid=0,evict_first=0"
edp="block=256,items=8,vec=4,grid=0,evict_first=0"
checks=$((checks + 1))
[ "$time_best" != "$frugal" ] && [ "$time_best" != "$edp" ] ||
	fail "the fixture: the fastest ($time_best) must be neither the most frugal nor the edp's best"

tui_session 80 24
# --- Before energy: the tables as they were ----------------------------------
launch "'$CONFORM' tui --db '$plain'"
expect_screen "1 Catalog" "the interface on the database without energy"
keys 4 / 2 ^ 2 4 Space a t o m i c Enter
expect_screen "^Variant +n +Config +us +GB/s +%copy *>$" "no energy: the columns of before (us, GB/s) at 80"
keys l l l l l l l
expect_screen "^Variant +n +Config +< .*Message$" "scrolled to the last column"
keys h h h h h h h h h h h h h h h h
expect_screen "^Variant +n +Config +us +GB/s +%copy *>$" "and back, no energy column between"
keys Enter
expect_screen "^energy: not measured$" "the detail of a result without energy: one line"
keys Enter b
expect_screen "^Variant +n +Config +us +GB/s +>$" "the best view without energy: as before"
expect_not_screen "e By" "and its key bar as before"
keys Escape b 6 Space j j j Space Enter
expect_screen "^base +run 2 " "the comparison of runs 2 and 5 without energy"
expect_not_screen "^energy: " "no energy counts"
expect_not_screen " Energy " "no Energy column"
keys l
expect_screen "^Verdict +Variant +n +Configuration +< +Base us" "none scrolled to either: after the change of median, the medians"
keys h
keys / b l o c k = 1 0 2 4 , i t e m s = 2 , v e c = 4 , g r i d = 0 , e v i c t _ f i r s t = 0 Space a t o m i c Space 2 ^ 2 4 Enter Enter
expect_screen "^new message: " "an item's detail without energy"
expect_not_screen "energy" "says nothing of energy"
keys Escape Escape Escape q
expect_screen "^EXIT=0" "q leaves"
keys clear Enter

# --- With energy: Results ------------------------------------------------------
launch "'$CONFORM' tui --db '$db'"
expect_screen "1 Catalog" "the interface on the database with energy"
keys 4
expect_screen "^Run #5 " "Results on run 5"
expect_screen "^Variant +n +Config +us +mJ +>$" "energy per launch (mJ) beside the median at 80"
expect_screen "^device\\.cub +2\\^20 +\\(default\\) +[0-9.]+ +$missing$" "a row without energy: missing, not 0"
keys / 2 ^ 2 4 Space a t o m i c Enter
expect_screen "^Variant +n +Config +us +mJ +W +P +>$" "the Pareto column"
expect_screen "^\\* device\\.atomic +2\\^24 +block=1024,items=2,vec=4,evict_first=0 +23\\.84 +9\\.54 +400 +P$" "the fastest on the front (P), 9.54 mJ at 400 W"
expect_screen "^device\\.atomic +2\\^24 +block=256,items=8,vec=4,evict_first=0 +23\\.90 +7\\.17 +300 +P$" "slower and more frugal: on the front"
expect_screen "^device\\.atomic +2\\^24 +block=512,items=8,vec=4,evict_first=0 +23\\.87 +9\\.55 +400$" "slower and costlier than the fastest: off the front"
keys / C-u 2 ^ 2 0 Space a t o m i c Enter
# The two fastest have the same median (4.10 us) and power: both on it.
expect_screen "block=512,items=8,vec=4,evict_first=1 +4\\.10 +1\\.64 +400 +P$" "at 2^20, a front of its own: the fastest"
expect_screen "block=256,items=8,vec=4,evict_first=1 +4\\.10 +1\\.64 +400 +P$" "and the one as fast, as costly"
checks=$((checks + 1))
[ "$(grep -c ' P$' "$TMP/screen")" = 2 ] || fail "at 2^20 the two fastest alone on the front"
keys / C-u 2 ^ 2 4 Space a t o m i c Space e v i c t _ f i r s t = 1 Enter
expect_screen "^device\\.atomic +2\\^24 +block=1024,items=8,vec=4 +23\\.90 +$missing +$missing +2807\\.4 " "the result without energy: missing, off the front"
# The front is the run's, not the filter's.
keys / C-u 2 ^ 2 4 Space b l o c k = 6 4 , Enter
expect_screen "^device\\.atomic +2\\^24 +block=64,items=4,vec=4,grid=0,evict_first=0 +28\\.54 +6\\.51 +228$" "the slowest, the most frugal, filtered alone"
keys z
expect_screen "^P +P$" "on the front all the same"
expect_screen "^W +228$" "its power"
keys z Enter
expect_screen "^energy: 6\\.51 mJ per launch (±|\\+-) 1\\.0%; counter window 0\\.3 s, burst of 12000 launches$" "the detail: energy per launch, its uncertainty, the window and the burst"
expect_screen "^power: 228\\.0 W by the counter, 230\\.0 W by the readings$" "the detail: power by the counter and by the readings"
expect_screen "^clocks: SM 1980 MHz, memory 2619 MHz; throttle reasons none$" "the detail: clocks and throttle reasons"
keys Enter / C-u 2 ^ 2 4 Space e v i c t _ f i r s t = 1 Space b l o c k = 1 0 2 4 , i t e m s = 8 , v e c = 4 Enter Enter
expect_screen "^energy: not measured$" "the detail of the result without energy"
keys Enter
# --- The best view: e ranks by time, energy, edp --------------------------------
keys b / C-u 2 ^ 2 4 Space a t o m i c Enter
expect_screen "^Best configurations +1 matching" "the best view by time says nothing more"
expect_screen "^device\\.atomic +2\\^24 +$time_best +[0-9.]+ +[0-9.]+ +400" "by time: the fastest ($time_best)"
expect_screen "e By energy" "the key bar offers e"
keys e
expect_screen "^Best configurations by energy +1 matching" "e: best by energy, the heading says"
expect_screen "e By edp" "the key bar names the next"
expect_screen "^device\\.atomic +2\\^24 +$frugal +28\\.54 +6\\.51 +228" "by energy: the most frugal ($frugal)"
keys e
expect_screen "^Best configurations by edp +1 matching" "e again: by edp"
expect_screen "^device\\.atomic +2\\^24 +$edp +23\\.90 +7\\.17 +300" "by edp: the least energy x time ($edp)"
keys e
expect_screen "^Best configurations +1 matching" "e again: back to time"
expect_screen "^device\\.atomic +2\\^24 +$time_best " "by time again: the fastest"
keys e Enter
expect_screen "^best: $frugal$" "the problem's detail by energy: its best"
expect_screen "^by energy: 6\\.51 mJ per launch, 228 W; P: time/energy Pareto front; e: by edp$" "what the best spent, and what P and e mean"
expect_screen "^ 1 $frugal +28\\.54 +6\\.51 +228 +P$" "ranked by energy, the most frugal first, on the front"
expect_screen "^ 2 $edp +23\\.90 +7\\.17 +300 +P$" "then the edp's best, on the front"
expect_screen "^ 3 block=1024,items=2,vec=4,grid=0,evict_first=0 +23\\.71 +8\\.54 +360 +P$" "then the fastest, on the front"
expect_screen "^ 4 block=1024,items=2,vec=4,grid=0,evict_first=1 +23\\.78 +9\\.51 +400$" "then the others, off it"
keys j z
expect_screen "^vs best +\\+10\\.2%$" "vs best: the energy's excess over the best's (7.17 / 6.51 mJ)"
keys z e
expect_screen "^best: $edp$" "e in the detail: the same problem by edp"
expect_screen "^ 1 $edp +23\\.90 +7\\.17 +300 +P$" "the configurations ranked again"
keys e
expect_screen "^best: $time_best$" "and by time, the list's best again"
expect_screen "^ 1 $time_best " "ranked by time"
keys Escape Escape b
# The help says what e, mJ, W and P are.
keys '?' G k k k k k k k k
expect_screen "e \\(best\\) +rank by time, energy per launch, or energy x time" "the help: e"
expect_screen "P: on the time/energy" "the help: P"
expect_screen "Pareto front of its variant.s configurations at that" "the help: the front is per problem"
keys Escape q
expect_screen "^EXIT=0" "q leaves"
keys clear Enter

# --- --objective -------------------------------------------------------------------
one_line_exit2 "tui --objective with a word it does not know" "$CONFORM" tui --objective speed --db "$db"
expect_grep "$TMP/err" "--objective: unknown objective 'speed' \(time, energy, edp\)" \
	"--objective's error names the objectives, as every command's does"
launch "'$CONFORM' tui --db '$db' --objective edp"
keys 4 b / 2 ^ 2 4 Space a t o m i c Enter
expect_screen "^Best configurations by edp +1 matching" "--objective edp: the best view starts by edp"
expect_screen "^device\\.atomic +2\\^24 +$edp " "its best"
keys Escape b q
expect_screen "^EXIT=0" "q leaves"
keys clear Enter

# --- 200x50: a comparison's item, what each side spent --------------------------
tui_resize 200 50
launch "'$CONFORM' tui --db '$db'"
keys 6 Space j j j Space Enter
expect_screen "^base +run 2 " "200x50: the comparison of runs 2 and 5"
"$CONFORM" compare 2 5 --db "$db" >"$TMP/compare" 2>&1
energy_line=$(sed -n 's/^energy: \([0-9]* more, .*\)/\1/p' "$TMP/compare")
checks=$((checks + 1))
[ -n "$energy_line" ] || fail "conform compare 2 5 prints no energy counts"
expect_screen "^energy: $energy_line$" "the energy counts as conform compare prints them ($energy_line)"
expect_screen "^Verdict +Variant +n +Configuration +Change +Energy +" "an Energy column beside the change of median"
keys / b l o c k = 1 0 2 4 , i t e m s = 2 , v e c = 4 , g r i d = 0 , e v i c t _ f i r s t = 0 Space a t o m i c Space 2 ^ 2 4 Enter
expect_screen "^SAME +device\\.atomic +2\\^24 .* \\+0\\.5% +\\+11\\.7% more " "the same time, 11.7 % more energy: apart"
keys Enter
expect_screen "^energy: more \\+11\\.7% per launch, judged apart from time$" "the item's energy verdict"
expect_screen "^base energy: 8\\.54 mJ per launch, 360 W$" "the base side's energy"
expect_screen "^new energy: 9\\.54 mJ per launch, 400 W$" "the new side's energy"
keys Escape Escape Escape q
expect_screen "^EXIT=0" "q leaves the comparison"
keys clear Enter
# --- 200x50: every column, the whole detail ---------------------------------------
launch "'$CONFORM' tui --db '$db'"
keys 4 / 2 ^ 2 4 Space a t o m i c Enter
expect_screen "^Variant +n +Config +Type +Op +Status +us +mJ +W +P +GB/s +%copy +xbase +Noise +Spread +Message" "every timed column at 200, energy beside time"
keys / C-u 2 ^ 2 4 Space b l o c k = 2 5 6 , i t e m s = 8 , v e c = 4 , g r i d = 0 , e v i c t _ f i r s t = 0 Enter Enter
expect_screen "^interval: median in " "the timing first"
expect_screen "^energy: 7\\.17 mJ per launch (±|\\+-) 1\\.0%; counter window 0\\.3 s, burst of 12000 launches$" "then the energy"
expect_screen "^power: 300\\.0 W by the counter, 296\\.0 W by the readings$" "the power, two ways"
expect_screen "^clocks: SM 1980 MHz, memory 2619 MHz; throttle reasons sw_power_cap,hw_slowdown$" "the throttle reasons seen"
keys Enter Escape b
expect_screen "^Variant +n +Config +Type +Op +us +mJ +W +GB/s +xbase +%copy +Spread +Device" "the best view's columns at 200, energy beside time"
keys b q
expect_screen "^EXIT=0" "q leaves"
finish
