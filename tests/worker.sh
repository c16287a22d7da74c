#!/bin/sh
# worker.sh - conform driving stand-in workers that misbehave after the
# catalog (which they leave to the real worker): one that never greets is
# killed at the start deadline, which follows --timeout; a reply that is
# not a result is quoted.
. "$(dirname "$0")/lib.sh"

# stand_in NAME: a worker that lists the real catalog and then runs the
# shell lines on stdin in place of the real worker.
stand_in() {
	{
		echo '#!/bin/sh'
		echo "[ \"\$1\" = --catalog ] && exec \"$top_builddir/conform-worker\" --catalog"
		cat
	} >"$TMP/$1"
	chmod +x "$TMP/$1"
}
# took_between LO HI WHAT: the last command, started at $t0, took LO to HI s.
took_between() {
	checks=$((checks + 1))
	awk -v a="$t0" -v b="$(date +%s.%N)" -v lo="$1" -v hi="$2" 'BEGIN { exit !(b - a >= lo && b - a < hi) }' ||
		fail "$3: took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }') s, want $1 to $2"
}
# gone PIDFILE WHAT: the processes whose ids a stand-in wrote are dead.
gone() {
	checks=$((checks + 1))
	for p in $(cat "$1"); do
		st=$(ps -o stat= -p "$p" 2>/dev/null)
		case "$st" in
		"" | Z*) ;;
		*) fail "$2: process $p left running ($st)" ;;
		esac
	done
}
cat >"$TMP/one.suite" <<'SUITE'
case w.pass variant=harness.pass n=10 dtype=i32
SUITE

# Never greets: given up at the start deadline, which is --timeout (here
# 2.5 s; at least 2 s, see test_session), not a fixed minute.
stand_in mute <<FAKE
sleep 1000 &
echo \$\$ \$! >"$TMP/mute.pids"
wait
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/mute" expect_exit 2 "a worker that never greets" -- \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/mute.db" --timeout 2.5
took_between 2.5 3.5 "a worker that never greets"
expect_eq "$(cat "$TMP/err")" \
	"conform: $TMP/mute did not greet within 2.5 s (killed; a slow CUDA start needs a longer --timeout)" \
	"the start deadline named"
gone "$TMP/mute.pids" "a worker that never greets"

# A reply that is not the case's result is quoted in the error.
{ echo "printf 'NODEV\\tx\\n'"; echo "read -r line"; echo "echo 'GARBAGE instead of DONE'"; } |
	stand_in garbage
CONFORM_WORKER="$TMP/garbage" expect_exit 1 "an unexpected reply" -- \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/garbage.db"
expect_grep "$TMP/out" "^ERROR   w.pass: worker protocol error: unexpected reply 'GARBAGE instead of DONE'$" \
	"the reply quoted"

finish
