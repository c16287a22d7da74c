#!/bin/sh
# worker.sh - conform driving stand-in workers that misbehave after the
# catalog (which they leave to the real worker): one that never greets is
# killed at the start deadline, which follows --timeout; a reply that is
# not a result is quoted; escape sequences in anything a worker says reach
# neither the terminal nor the database.
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
cat >"$TMP/one.suite" <<'SUITE'
case w.pass variant=harness.pass n=10 dtype=i32
SUITE

# The worker's own arguments are read strictly.
expect_exit 2 "a junk device ordinal" -- "$top_builddir/conform-worker" --device 1x
expect_grep "$TMP/err" "^conform-worker: --device '1x': not a device ordinal$" "the junk named"

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

# Stops reading: it answers 600 cases ahead and sleeps, so conform's RUN
# lines fill the pipe (each 170 bytes with these names: full after some
# 380).  The case that cannot be sent is a TIMEOUT at its deadline, the
# worker is replaced and the run goes on; Ctrl-C still ends a run waiting
# to send.
{
	echo "printf 'NODEV\\tdeaf\\n'"
	echo "i=1"
	echo "while [ \$i -le 600 ]; do"
	echo "	printf 'DONE\\t%s\\tcompleted-correct\\t0\\t0\\t-1\\t0.5\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\tok\\n' \$i"
	echo "	i=\$((i + 1))"
	echo "done"
	echo "exec sleep 1000"
} | stand_in deaf
awk 'BEGIN { for (i = 1; i <= 500; i++) printf "case d.%0120d variant=harness.pass n=10 dtype=i32\n", i }' \
	>"$TMP/many.suite"
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/deaf" expect_exit 1 "a worker that stops reading" -- \
	"$CONFORM" --suite "$TMP/many.suite" --all --db "$TMP/deaf.db" --timeout 1
took_between 1 5 "a worker that stops reading"
expect_eq "$(sql "$TMP/deaf.db" "select status || ' ' || count(*) from results group by status order by status")" \
	"PASS 499
TIMEOUT 1" "one case could not be sent"
expect_grep "$TMP/out" "^TIMEOUT d\.0+3[0-9][0-9]: the worker did not take the case within 1\.0 s; killed$" \
	"the case that could not be sent"
CONFORM_WORKER="$TMP/deaf" "$CONFORM" --suite "$TMP/many.suite" --all --db "$TMP/deaf-int.db" --timeout 60 >"$TMP/int.out" 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
t0=$(date +%s.%N)
wait $pid
expect_eq "$?" 130 "Ctrl-C while waiting to send"
took_between 0 1 "Ctrl-C while waiting to send"
expect_eq "$(sql "$TMP/deaf-int.db" "select state from runs")" interrupted "the run marked interrupted"

# Escape sequences in what a worker says (its greeting, a result's
# message, an unexpected reply) reach neither the terminal nor the
# database: they arrive as '?'.
# no_esc FILE WHAT: FILE holds no ESC, BEL or C1 CSI byte.
no_esc() {
	checks=$((checks + 1))
	if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$1"; then
		fail "$2: a control byte in $(basename "$1")"
		LC_ALL=C grep "$(printf '[\033\007\233]')" "$1" | od -c | head -n 5 >&2
	fi
}
# answer: the shell loop of a stand-in that answers each RUN with a DONE
# whose message is $1 (printf escapes allowed).
answer() {
	echo "while IFS='$(printf '\t')' read -r tag seq rest; do"
	echo "	printf 'DONE\\t%s\\tcompleted-correct\\t0\\t0\\t-1\\t0.5\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\t$1\\n' \"\$seq\""
	echo "done"
}
cat >"$TMP/two.suite" <<'SUITE'
case w.one variant=harness.pass n=10 dtype=i32
case w.two variant=harness.pass n=10 dtype=f32
SUITE
{ echo "printf 'NODEV\\t\\033[31mno \\033]0;owned\\007device\\n'"; answer '\033[2J\033[1;1Hcleared \302\233 31m'; } |
	stand_in nodev
CONFORM_WORKER="$TMP/nodev" expect_exit 0 "control bytes from a worker without GPU" -- \
	"$CONFORM" --suite "$TMP/two.suite" --all --db "$TMP/esc.db" --verbose
no_esc "$TMP/out" "stdout, no GPU"
no_esc "$TMP/err" "stderr, no GPU"
expect_grep "$TMP/out" "\?\[31mno \?\]0;owned\?device" "the reason, made visible"
expect_grep "$TMP/out" "\?\[2J\?\[1;1Hcleared \? 31m" "the message, made visible"
{
	echo "printf 'HELLO\\t0\\tGPU\\033[8m hidden\\tGPU-\\033x\\t9\\t0\\t132\\t1000\\t13000\\t13000\\n'"
	answer '\033[2Jcleared'
} | stand_in hello
CONFORM_WORKER="$TMP/hello" expect_exit 0 "control bytes from a worker with a GPU" -- \
	"$CONFORM" --suite "$TMP/two.suite" --all --db "$TMP/esc.db" --json
no_esc "$TMP/out" "stdout, GPU"
no_esc "$TMP/err" "stderr, GPU"
expect_grep "$TMP/err" "GPU\?\[8m hidden" "the GPU's name, made visible"
{ echo "printf 'NODEV\\tx\\n'"; echo "read -r line"; echo "printf 'GARBAGE \\033[2J\\n'"; } |
	stand_in garbled
CONFORM_WORKER="$TMP/garbled" expect_exit 1 "an unexpected reply with controls" -- \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/esc.db"
expect_grep "$TMP/out" "unexpected reply 'GARBAGE \?\[2J'" "the reply, made visible"
no_esc "$TMP/out" "stdout, unexpected reply"
sql "$TMP/esc.db" .dump >"$TMP/esc.sql"
no_esc "$TMP/esc.sql" "the database"
expect_no_grep "$TMP/esc.sql" "char\((27|7|155)\)" "the database"
expect_grep "$TMP/esc.sql" "cleared" "the messages were stored"

finish
