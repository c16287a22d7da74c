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
finish
