#!/bin/sh
# spawn.sh - what a worker inherits from conform: its stdin, stdout and
# stderr and nothing more.  A descriptor of conform's own (its database,
# another worker's pipe, the /dev/null that silences a worker's stderr)
# left open in a worker would keep files and pipes alive behind conform's
# back.  Checked with a stand-in worker that records its descriptors and
# then becomes the real one.
. "$(dirname "$0")/lib.sh"

# extra_fds: the descriptors above 2 that a program started from here
# holds, with what each is ("5 /dev/null"); ls's own directory is left out.
extra_fds() {
	ls -l /proc/self/fd | awk '/ -> / && $NF !~ /^\/proc\// && $(NF - 2) > 2 { print $(NF - 2), $NF }'
}
extra_fds >"$TMP/fds.base"

cat >"$TMP/recorder" <<FAKE
#!/bin/sh
ls -l /proc/self/fd | awk '/ -> / && \$NF !~ /^\\/proc\\// && \$(NF - 2) > 2 { print \$(NF - 2), \$NF }' >"$TMP/fds\$1"
exec "$top_builddir/conform-worker" "\$@"
FAKE
chmod +x "$TMP/recorder"

cat >"$TMP/one.suite" <<'SUITE'
case s.pass variant=harness.pass n=10 dtype=i32
SUITE
# Without --verbose the worker's stderr goes to /dev/null.
CONFORM_WORKER="$TMP/recorder" expect_exit 0 "a run through the recorder" -- \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/quiet.db"
expect_eq "$(cat "$TMP/fds--catalog")" "$(cat "$TMP/fds.base")" "the catalog query inherits nothing more"
expect_eq "$(cat "$TMP/fds--device")" "$(cat "$TMP/fds.base")" "a quiet worker inherits nothing more"
rm -f "$TMP/fds--device"
CONFORM_WORKER="$TMP/recorder" expect_exit 0 "a verbose run through the recorder" -- \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/verbose.db" --verbose
expect_eq "$(cat "$TMP/fds--device")" "$(cat "$TMP/fds.base")" "a verbose worker inherits nothing more"

# A worker that times nothing gets one CUDA work queue
# (CUDA_DEVICE_MAX_CONNECTIONS=1: its context starts and ends faster), unless
# the user set the variable; a timing run's workers keep CUDA's default.
cat >"$TMP/env-recorder" <<FAKE
#!/bin/sh
echo "\$1 \${CUDA_DEVICE_MAX_CONNECTIONS-unset}" >>"$TMP/env.log"
exec "$top_builddir/conform-worker" "\$@"
FAKE
chmod +x "$TMP/env-recorder"
# queues WHAT WANT [NAME=VALUE...] CONFORM ARGS...: the value each worker
# that ran cases saw, one line for all of them.
queues() {
	what=$1 want=$2
	shift 2
	rm -f "$TMP/env.log"
	env CONFORM_WORKER="$TMP/env-recorder" "$@" >"$TMP/out" 2>"$TMP/err"
	expect_eq "$(awk '$1 == "--device" { print $2 }' "$TMP/env.log" | sort -u)" "$want" "$what"
}
queues "a conformance run's workers have one queue" 1 \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/env.db"
queues "the user's setting wins" 4 CUDA_DEVICE_MAX_CONNECTIONS=4 \
	"$CONFORM" --suite "$TMP/one.suite" --all --db "$TMP/env.db"
# (harness.spin: a timed variant every build has, with CUDA or without.)
queues "a tune's worker keeps CUDA's default" unset \
	"$CONFORM" tune harness.spin --n 2^10 --dtype f32 --strategy random --budget 1 --min-samples 1 \
	--max-time 0.01 --db "$TMP/env.db"
expect_eq "$(awk '$1 == "--catalog" { print $2 }' "$TMP/env.log")" unset "the catalog query's environment is conform's"
finish
