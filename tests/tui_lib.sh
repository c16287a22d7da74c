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
