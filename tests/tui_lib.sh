# tui_lib.sh - shared by the interface's tmux tests (tests/tui*.sh): a
# detached tmux session at a given size, keys sent to it, waits on what the
# screen shows, and the H100 tuning database the tuning panes are tested on.
# Sourced after lib.sh.  Exits 77 (skipped) when tmux is missing or cannot
# start a session.

# $TMUX is the tmux program configure found (the test environment sets it);
# inside a tmux session it may instead be the session's socket.
tmux_bin=${TMUX:-}
[ -n "$tmux_bin" ] && [ -x "$tmux_bin" ] || tmux_bin=$(command -v tmux 2>/dev/null)
if [ -z "$tmux_bin" ]; then
	echo "tmux not found: the interface is not tested"
	exit 77
fi
sock="$TMP/tmux.sock"
t() { env -u TMUX "$tmux_bin" -S "$sock" "$@"; }
trap 't kill-server >/dev/null 2>&1; rm -rf "$TMP"' EXIT
utf8=$(locale -a 2>/dev/null | grep -Eix 'c\.utf-?8' | head -n 1)

keys() { t send-keys -t tui "$@"; }
# wait_for REGEX [SECONDS]: until the screen shows it (left in $TMP/screen).
wait_for() {
	i=0
	while [ "$i" -lt "$((${2:-5} * 10))" ]; do
		t capture-pane -p -t tui >"$TMP/screen" 2>/dev/null
		grep -Eq -- "$1" "$TMP/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
expect_screen() {
	checks=$((checks + 1))
	wait_for "$1" "${3:-5}" || { fail "$2: no /$1/ on screen"; sed 's/^/  | /' "$TMP/screen" >&2; }
}
expect_not_screen() {
	checks=$((checks + 1))
	sleep 0.3
	t capture-pane -p -t tui >"$TMP/screen"
	if grep -Eq -- "$1" "$TMP/screen"; then
		fail "$2: unexpected /$1/ on screen"
		sed 's/^/  | /' "$TMP/screen" >&2
	fi
}
# launch ARGS...: runs conform tui in the session's shell, which then prints
# whether the terminal settings came back as they were, and the exit code.
launch() {
	keys "clear; s=\$(stty -g); $*; rc=\$?; [ \"\$s\" = \"\$(stty -g)\" ] && echo TTY-RESTORED; echo EXIT=\$rc" Enter
}
# tui_session COLS LINES: the detached session the tests type into.
tui_session() {
	t new-session -d -s tui -x "$1" -y "$2" "env -u TMUX PS1='$ ' LC_ALL=${utf8:-C} sh" ||
		{ echo "tmux cannot start a session: the interface is not tested"; exit 77; }
	wait_for '\$' 5 || fail "the shell in tmux did not start"
}
# clipboard_run ARGS...: the command line the interface last copied (the
# clipboard: OSC 52, which tmux keeps as its buffer with set-clipboard on)
# run by the built conform in $TMP, with ARGS after it and no GPU to be seen
# (exit 77 there, not 2); its output in $TMP/out and err, its status in
# copied_rc.
clipboard_run() {
	copied=$(t show-buffer 2>/dev/null)
	case $copied in
	"conform "*) ;;
	*) fail "the clipboard holds no conform command line: '$copied'" ;;
	esac
	(cd "$TMP" && eval "CUDA_VISIBLE_DEVICES= '$CONFORM' ${copied#conform } $*") >"$TMP/out" 2>"$TMP/err"
	copied_rc=$?
}
# copied_resolves WHAT: the copied tune line ran as far as the device: its
# variant resolved (a kernel file's needs the file), no usage error.
copied_resolves() {
	checks=$((checks + 1))
	if [ "$copied_rc" = 2 ] || grep -Eq "unknown variant|nothing matches" "$TMP/err"; then
		fail "$1: conform refuses the copied line (exit $copied_rc)"; sed 's/^/  | /' "$TMP/err" >&2
	fi
}
# mouse_bytes BUTTON X Y: a mouse event as an xterm reports it in the X10
# encoding that the terminal's kmous (\E[M) announces: ESC [ M, then 32 plus
# the button (0 the first, 3 a release, 64 and 65 the wheel), 33 plus the
# column and 33 plus the row, counted from 0.
mouse_bytes() {
	printf "\033[M$(printf '\\%03o' $((32 + $1)))$(printf '\\%03o' $((33 + $2)))$(printf '\\%03o' $((33 + $3)))"
}
# click X Y [2]: the first button pressed and released at column X, row Y
# (twice with 2: a double click), typed into the session; then the time
# curses waits to tell a click from a double click (mouseinterval), so that
# the keys after it come after it.
click() {
	ev=$(mouse_bytes 0 "$1" "$2")$(mouse_bytes 3 "$1" "$2")
	[ "${3:-1}" = 2 ] && ev=$ev$ev
	t send-keys -t tui -l "$ev"
	sleep 0.4
}
# wheel up|down X Y: one turn of the wheel at column X, row Y.
wheel() {
	t send-keys -t tui -l "$(mouse_bytes "$([ "$1" = up ] && echo 64 || echo 65)" "$2" "$3")"
	sleep 0.2
}
# mouse_on: 1 when the program in the session asked the terminal for mouse
# events, 0 when it did not.
mouse_on() { t display-message -p -t tui '#{mouse_any_flag}'; }

# tui_resize COLS LINES
tui_resize() { t resize-window -t tui -x "$1" -y "$2"; }

# tui_fixture DB: the database of an H100 (NVIDIA H100 80GB HBM3,
# 2026-11-25): run 1 "conform --all" (tag nightly), runs 2 and 5 two
# "conform bench --strategy anneal --budget 27" (tags bench-a and bench-b),
# run 3 an interrupted tune of softmax.* bf16 at rows of 128, run 4 a tune of
# softmax.* f32 at 4096 rows of 1024.  Needs sqlite3; exits 77 without it.
tui_fixture() {
	command -v "${SQLITE3:-sqlite3}" >/dev/null 2>&1 || { echo "sqlite3 not found: the tuning panes are not tested"; exit 77; }
	rm -f "$1"
	gzip -dc "$top_srcdir/tests/data/h100-tuning.sql.gz" | "${SQLITE3:-sqlite3}" "$1" ||
		{ fail "loading the H100 tuning database"; exit 1; }
}

# tui_fixture_shapes DB: every shape the reading interface must show, on one
# database.  The H100 database above (tui_fixture: runs 1-5, device 1, an
# older schema) is opened once by this conform, which migrates it to the
# current schema; then, in that schema:
#   device 2 and 3: two "NVIDIA H200" of one machine, the same name and
#     different uuids (only the uuid, or the device's row, tells them apart);
#   run 6 (conformance, "run --all --devices 0,1"): a conformance run over
#     devices 2 and 3 (runs.device_id 2, each result's device_id its own):
#     device.last_block.sum.bf16 at n1 and n31 PASS (on 2 and 3),
#     n16777223 FAIL (on 2, completed-wrong with a message), n1000003 and
#     n4099 TIMEOUT (on 3 and 2, hung): a FAIL and two TIMEOUTs whose names
#     differ only in their size suffix; untimed;
#   run 7 (tune, "tune --kernel $top_srcdir/examples/kernels/grid_sum.cu
#     --n 2^24,2^28 --dtype f32"): a user kernel's tune on device 1: its
#     variant user.grid_sum (what conform names that file's kernel; conform
#     bench takes no --kernel), three configurations at 2^24 and three at
#     2^28 (block, items, waves, op=sum), their results' source the file's
#     SHA-256; beside them, measured in the same run, the copy
#     (device.copy.f32.n268435456, with its device_bandwidth row) and the
#     CUB baseline (device.cub, op=sum) at each size, so that % copy and x
#     base can be computed for the user kernel;
#   run 8 (tune, "tune device.atomic --n 2^24 --dtype f32"): long
#     configurations that differ only at their ends (block=512,items=2,
#     vec=4,grid=0,evict_first=0|1,op=sum and grid=1 ...), and the CUB
#     baseline, each with its interval;
#   run 9 (tune, merged from an older build's database, started before
#     runs 6-8): device.atomic at 2^24 again, timed but without intervals
#     (ci_low_ms, ci_high_ms, spread and noise_met NULL), as stored before
#     conform kept them: a missing interval is shown as missing, never as
#     [m, m] 0.0%.
# Needs sqlite3 (77 without it) and a SHA-256 tool (sha256sum or shasum).
tui_fixture_shapes() {
	tui_fixture "$1"
	"$CONFORM" db info --db "$1" >/dev/null || { fail "conform db info: migrating the H100 database"; exit 1; }
	kernel="$top_srcdir/examples/kernels/grid_sum.cu"
	source=$( (sha256sum || shasum -a 256) <"$kernel" 2>/dev/null | cut -d' ' -f1)
	[ ${#source} -eq 64 ] || { fail "no SHA-256 of $kernel"; exit 1; }
	"${SQLITE3:-sqlite3}" "$1" <<SQL || { fail "the shapes' rows"; exit 1; }
BEGIN;
INSERT INTO devices (id, name, uuid, cc_major, cc_minor, sm_count, memory_bytes, driver_version,
	runtime_version, first_seen) VALUES
	(2, 'NVIDIA H200', 'GPU-5f0c1e2a-7d3b-4c6e-9a81-0000000000c0', 9, 0, 132, 150754820096, 12080, 12080,
	 '2026-11-26T09:00:00Z'),
	(3, 'NVIDIA H200', 'GPU-5f0c1e2a-7d3b-4c6e-9a81-0000000000c1', 9, 0, 132, 150754820096, 12080, 12080,
	 '2026-11-26T09:00:00Z');
INSERT INTO runs (id, started_at, ended_at, state, host, conform_version, git_revision, command_line,
	seed, device_id, passed, failed, skipped, kind, tag, uuid) VALUES
	(6, '2026-11-26T09:00:00Z', '2026-11-26T09:00:31Z', 'complete', 'h200', '0.1.0', 'shapes',
	 'run --all --devices 0,1 --db $1', '20261126', 2, 2, 3, 0, 'conformance', NULL, 'shapes-6'),
	(7, '2026-11-26T10:00:00Z', '2026-11-26T10:02:00Z', 'complete', 'vm', '0.1.0', 'shapes',
	 'tune --kernel $kernel --n 2^24,2^28 --dtype f32 --db $1', '1', 1, 9, 0, 0, 'tune', NULL,
	 'shapes-7'),
	(8, '2026-11-26T11:00:00Z', '2026-11-26T11:01:00Z', 'complete', 'vm', '0.1.0', 'shapes',
	 'tune device.atomic --n 2^24 --dtype f32 --db $1', '1', 1, 5, 0, 0, 'tune', NULL, 'shapes-8'),
	(9, '2026-11-20T08:00:00Z', '2026-11-20T08:01:00Z', 'complete', 'vm', '0.0.9', 'older',
	 'tune device.atomic --n 2^24 --dtype f32', '1', 1, 3, 0, 0, 'tune', NULL, 'shapes-9-merged');
-- Run 6: untimed, a device each.
INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status,
	observed, message, err_norm, duration_ms, seed, created_at, op, device_id) VALUES
	(6, 'device.last_block.sum.bf16.n1', 'device', 'device.last_block', 'op=sum', 'bf16', 1, 0, 'pass',
	 'PASS', 'completed-correct', '', 0, 5.0, '2485240383348813849', '2026-11-26T09:00:01Z', 'sum', 2),
	(6, 'device.last_block.sum.bf16.n31', 'device', 'device.last_block', 'op=sum', 'bf16', 31, 0, 'pass',
	 'PASS', 'completed-correct', '', 0, 0.6, '11637465274392242122', '2026-11-26T09:00:01Z', 'sum', 3),
	(6, 'device.last_block.sum.bf16.n16777223', 'device', 'device.last_block', 'op=sum', 'bf16',
	 16777223, 0, 'pass', 'FAIL', 'completed-wrong',
	 'the sum disagrees with the reference: got 1.6384e+07, want 1.6777223e+07 (relative L2 error 0.0234, tolerance 0.0078)',
	 0.0234, 230.0, '1862068106818113639', '2026-11-26T09:00:02Z', 'sum', 2),
	(6, 'device.last_block.sum.bf16.n1000003', 'device', 'device.last_block', 'op=sum', 'bf16', 1000003,
	 0, 'pass', 'TIMEOUT', 'hung', 'no result within 10.0 s; worker killed', NULL, 10012.0,
	 '4909762865157443223', '2026-11-26T09:00:12Z', 'sum', 3),
	(6, 'device.last_block.sum.bf16.n4099', 'device', 'device.last_block', 'op=sum', 'bf16', 4099, 0,
	 'pass', 'TIMEOUT', 'hung', 'no result within 10.0 s; worker killed', NULL, 10008.0,
	 '860714831965783497', '2026-11-26T09:00:22Z', 'sum', 2);
-- Runs 7-9: timed, each row's GB/s from its bytes and median; an interval
-- of +-0.4 % unless the row has none.
CREATE TEMP TABLE timed (run_id, case_name, kernel, variant, params, dtype, n, bytes, median_ms,
	source, interval, created_at);
INSERT INTO timed VALUES
	(7, 'device.copy.f32.n268435456', 'device', 'device.copy', '', 'f32', 268435456, 2147483648.0,
	 0.7048, NULL, 1, '2026-11-26T10:00:05Z'),
	(7, 'device.cub.sum.f32.n16777216', 'device', 'device.cub', 'op=sum', 'f32', 16777216, 67108864.0,
	 0.0268, NULL, 1, '2026-11-26T10:00:06Z'),
	(7, 'user.grid_sum.sum.f32.n16777216', 'user', 'user.grid_sum', 'block=256,items=4,waves=2,op=sum',
	 'f32', 16777216, 67108864.0, 0.0257, '$source', 1, '2026-11-26T10:00:20Z'),
	(7, 'user.grid_sum.sum.f32.n16777216', 'user', 'user.grid_sum', 'block=512,items=4,waves=2,op=sum',
	 'f32', 16777216, 67108864.0, 0.0260, '$source', 1, '2026-11-26T10:00:30Z'),
	(7, 'user.grid_sum.sum.f32.n16777216', 'user', 'user.grid_sum', 'block=128,items=8,waves=4,op=sum',
	 'f32', 16777216, 67108864.0, 0.0275, '$source', 1, '2026-11-26T10:00:40Z'),
	(7, 'device.cub.sum.f32.n268435456', 'device', 'device.cub', 'op=sum', 'f32', 268435456,
	 1073741824.0, 0.3712, NULL, 1, '2026-11-26T10:01:00Z'),
	(7, 'user.grid_sum.sum.f32.n268435456', 'user', 'user.grid_sum', 'block=256,items=4,waves=2,op=sum',
	 'f32', 268435456, 1073741824.0, 0.3581, '$source', 1, '2026-11-26T10:01:20Z'),
	(7, 'user.grid_sum.sum.f32.n268435456', 'user', 'user.grid_sum', 'block=512,items=4,waves=2,op=sum',
	 'f32', 268435456, 1073741824.0, 0.3604, '$source', 1, '2026-11-26T10:01:40Z'),
	(7, 'user.grid_sum.sum.f32.n268435456', 'user', 'user.grid_sum', 'block=128,items=8,waves=4,op=sum',
	 'f32', 268435456, 1073741824.0, 0.3699, '$source', 1, '2026-11-26T10:01:59Z'),
	(8, 'device.cub.sum.f32.n16777216', 'device', 'device.cub', 'op=sum', 'f32', 16777216, 67108864.0,
	 0.0268, NULL, 1, '2026-11-26T11:00:05Z'),
	(8, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=512,items=2,vec=4,grid=0,evict_first=1,op=sum', 'f32', 16777216, 67108864.0, 0.0253, NULL, 1,
	 '2026-11-26T11:00:15Z'),
	(8, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=512,items=2,vec=4,grid=0,evict_first=0,op=sum', 'f32', 16777216, 67108864.0, 0.0255, NULL, 1,
	 '2026-11-26T11:00:25Z'),
	(8, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=512,items=2,vec=4,grid=1,evict_first=1,op=sum', 'f32', 16777216, 67108864.0, 0.0391, NULL, 1,
	 '2026-11-26T11:00:35Z'),
	(8, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=512,items=2,vec=4,grid=1,evict_first=0,op=sum', 'f32', 16777216, 67108864.0, 0.0394, NULL, 1,
	 '2026-11-26T11:00:45Z'),
	(9, 'device.cub.sum.f32.n16777216', 'device', 'device.cub', 'op=sum', 'f32', 16777216, 67108864.0,
	 0.0270, NULL, 0, '2026-11-20T08:00:05Z'),
	(9, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=512,items=2,vec=4,grid=0,evict_first=1,op=sum', 'f32', 16777216, 67108864.0, 0.0254, NULL, 0,
	 '2026-11-20T08:00:15Z'),
	(9, 'device.atomic.sum.f32.n16777216', 'device', 'device.atomic',
	 'block=256,items=4,vec=4,grid=0,evict_first=0,op=sum', 'f32', 16777216, 67108864.0, 0.0262, NULL, 0,
	 '2026-11-20T08:00:25Z');
INSERT INTO results (run_id, case_name, kernel, variant, params, dtype, n, cols, expect, status,
	observed, message, err_norm, duration_ms, seed, created_at, median_ms, mean_ms, stddev_ms, min_ms,
	samples, noise, gbps, op, device_id, ci_low_ms, ci_high_ms, spread, noise_met, throttled, timer,
	source)
	SELECT run_id, case_name, kernel, variant, params, dtype, n, 0, 'pass', 'PASS', 'completed-correct',
		'', 0, 150.0, '1', created_at, median_ms, median_ms * 1.002, median_ms * 0.01,
		median_ms * 0.99, 120, 0.01, bytes / (median_ms * 1e6),
		CASE WHEN params LIKE '%op=sum%' THEN 'sum' END, 1,
		CASE WHEN interval THEN median_ms * 0.996 END, CASE WHEN interval THEN median_ms * 1.004 END,
		CASE WHEN interval THEN 0.004 END, CASE WHEN interval THEN 1 END, 0, 'cupti', source
	FROM timed ORDER BY rowid;
INSERT INTO device_bandwidth (device_id, variant, bytes, median_ms, gbps, measured_at, conform_version,
	git_revision) VALUES (1, 'device.copy', 2147483648.0, 0.7048, 2147483648.0 / (0.7048 * 1e6),
	'2026-11-26T10:00:05Z', '0.1.0', 'shapes');
COMMIT;
SQL
}
