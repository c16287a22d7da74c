#!/bin/sh
# catalog.sh - conform reading the catalog from the worker: a field longer
# than any fixed buffer comes through whole, and a malformed catalog, a
# missing build line or a failing worker is refused with a message saying
# which (stand-in workers, no GPU).
. "$(dirname "$0")/lib.sh"

# fake NAME LINE... : a stand-in conform-worker printing the given lines.
fake() {
	name=$1; shift
	{ echo '#!/bin/sh'; for l in "$@"; do printf "printf '%%s\\\\n' '%s'\n" "$l"; done; } >"$TMP/$name"
	chmod +x "$TMP/$name"
}
T=$(printf '\t')
long=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "c"; }')

fake long "build${T}no-kernels${T}" "variant${T}long.one${T}0${T}f32${T}summary${T}$long${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0"
CONFORM_WORKER="$TMP/long" expect_exit 0 "a long contract" -- "$CONFORM" --variants
expect_grep "$TMP/out" "^ +$long\$" "the 3000-byte contract whole"

fake short "build${T}no-kernels${T}" "variant${T}x.y${T}0${T}f32${T}s${T}c${T}-"
CONFORM_WORKER="$TMP/short" expect_exit 2 "a short variant line" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog: line 2: 'variant' line with 6 fields after the tag, not 18" "the bad line named"

fake nobuild "variant${T}x.y${T}0${T}f32${T}s${T}c${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0"
CONFORM_WORKER="$TMP/nobuild" expect_exit 2 "no build line" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog: no 'build' line" "missing build line"

fake failing "build${T}no-kernels${T}"
echo 'exit 3' >>"$TMP/failing"
CONFORM_WORKER="$TMP/failing" expect_exit 2 "failing worker" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog failed \(exited with status 3\)" "how the worker ended"

# script NAME: a stand-in conform-worker running the shell lines on stdin.
script() {
	{ echo '#!/bin/sh'; cat; } >"$TMP/$1"
	chmod +x "$TMP/$1"
}
# quick WHAT: the last command, started at $t0, gave up in under 2 s with
# one line on stderr.
quick() {
	checks=$((checks + 1))
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a < 2) }' || fail "$1: took over 2 s"
	expect_eq "$(wc -l <"$TMP/err")" 1 "$1: one line on stderr"
}
build="build${T}no-kernels${T}"
variant="variant${T}x.y${T}0${T}f32${T}s${T}c${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0"

# Silent: it, and what it started, are killed at the deadline.
script sleeper <<FAKE
sleep 1000 &
echo \$\$ \$! >"$TMP/sleeper.pids"
wait
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/sleeper" expect_exit 2 "a silent worker" -- "$CONFORM" --variants
quick "a silent worker"
expect_grep "$TMP/err" "^conform: .*/sleeper --catalog did not finish within 1.5 s \(killed\)$" "silence"
gone "$TMP/sleeper.pids" "a silent worker"

# Out of time with kernel files to read (what can take long: a file and
# what it includes): the message names them.
script stuck <<FAKE
exec sleep 1000
FAKE
for f in a b c; do echo '// a kernel' >"$TMP/$f.cu"; done
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/stuck" expect_exit 2 "a silent worker, a kernel file" -- "$CONFORM" run --kernel "$TMP/a.cu" --list
quick "a silent worker, a kernel file"
expect_grep "$TMP/err" "--catalog did not finish within 1.5 s \(killed\) while reading the kernel file $TMP/a\.cu$" \
	"a silent worker: the kernel file named"
CONFORM_WORKER="$TMP/stuck" expect_exit 2 "a silent worker, kernel files" -- \
	"$CONFORM" run --kernel "$TMP/a.cu" --kernel "$TMP/b.cu" --kernel "$TMP/c.cu" --list
expect_grep "$TMP/err" "--catalog did not finish within 1.5 s \(killed\) while reading the kernel files $TMP/a\.cu, $TMP/b\.cu, $TMP/c\.cu$" \
	"a silent worker: the kernel files named"

# A line every 0.1 s, forever: the deadline holds all the same.
script trickler <<FAKE
echo '$build'
while :; do echo '$variant'; sleep 0.1; done
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/trickler" expect_exit 2 "a trickling worker" -- "$CONFORM" --variants
quick "a trickling worker"
expect_grep "$TMP/err" "--catalog did not finish within 1.5 s \(killed\)$" "trickle"

# Lines without end, short or long: a bound stops it before the deadline.
script endless <<FAKE
echo '$build'
exec yes '$variant'
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/endless" expect_exit 2 "endless lines" -- "$CONFORM" --variants
quick "endless lines"
expect_grep "$TMP/err" "--catalog: more than 4096 lines \(killed\)$" "the line bound"
wide=$(awk 'BEGIN { for (i = 0; i < 60000; i++) printf "c"; }')
script flood <<FAKE
exec yes 'variant${T}x.y${T}0${T}f32${T}s${T}$wide${T}-${T}-${T}-${T}0${T}-${T}-'
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/flood" expect_exit 2 "endless long lines" -- "$CONFORM" --variants
quick "endless long lines"
expect_grep "$TMP/err" "--catalog: more than 8388608 bytes \(killed\)$" "the byte bound"
script overlong <<FAKE
awk 'BEGIN { for (i = 0; i < 70000; i++) printf "c"; print ""; }'
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/overlong" expect_exit 2 "an overlong line" -- "$CONFORM" --variants
quick "an overlong line"
expect_grep "$TMP/err" "--catalog: line 1: more than the 65536 bytes a catalog line may have \(killed\)$" \
	"the line length bound"

# Lists its catalog, closes the pipe and stays: killed at the deadline.
script lingerer <<FAKE
echo '$build'
echo '$variant'
exec >&-
echo \$\$ >"$TMP/lingerer.pids"
sleep 1000
FAKE
t0=$(date +%s.%N)
CONFORM_WORKER="$TMP/lingerer" expect_exit 2 "a lingering worker" -- "$CONFORM" --variants
quick "a lingering worker"
expect_grep "$TMP/err" "--catalog did not finish within 1.5 s \(killed\)$" "lingering"
gone "$TMP/lingerer.pids" "a lingering worker"

# A NUL byte would cut a field short: the line is refused.
script nul <<FAKE
echo '$build'
printf 'variant\tx.y\t0\tf32\ts\0hidden\tc\t-\t-\t-\t0\t-\t-\t-\t-\t-\t-\t-\t-\t0\n'
FAKE
CONFORM_WORKER="$TMP/nul" expect_exit 2 "a NUL byte" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog: line 2: a NUL byte inside the line$" "the NUL byte named"

# Escape sequences in the catalog reach neither the terminal nor a message.
esc=$(printf '\033')
fake escapes "$build" "variant${T}x.y${T}0${T}f32${T}${esc}[2Jcleared${T}${esc}]0;owned$(printf '\007')c${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0" \
	"variant${T}x.z${T}1${esc}[8m${T}f32${T}s${T}c${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0"
CONFORM_WORKER="$TMP/escapes" expect_exit 2 "control bytes in the catalog" -- "$CONFORM" --variants
expect_grep "$TMP/err" "line 3: field 'gpu' is '1\?\[8m', not '1' or '0'" "the bad field quoted, made visible"
checks=$((checks + 1))
LC_ALL=C grep -q "$(printf '[\033\007]')" "$TMP/err" && fail "a control byte in the catalog's error"
fake escapes "$build" "variant${T}x.y${T}0${T}f32${T}${esc}[2Jcleared${T}${esc}]0;owned$(printf '\007')c${T}-${T}-${T}-${T}0${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}-${T}0"
CONFORM_WORKER="$TMP/escapes" expect_exit 0 "control bytes in the catalog" -- "$CONFORM" --variants
expect_grep "$TMP/out" "\?\[2Jcleared" "the summary made visible"
expect_grep "$TMP/out" "\?\]0;owned\?c" "the contract made visible"
checks=$((checks + 1))
LC_ALL=C grep -q "$(printf '[\033\007]')" "$TMP/out" && fail "a control byte in --variants"

# No variants, or no answer at all: said as such, not blamed on the suites.
cat >"$TMP/one.suite" <<'SUITE'
case e.pass variant=harness.pass n=10 dtype=i32
SUITE
fake empty "$build"
CONFORM_WORKER="$TMP/empty" expect_exit 2 "an empty catalog" -- "$CONFORM" --suite "$TMP/one.suite" --all
expect_eq "$(cat "$TMP/err")" "conform: $TMP/empty --catalog listed no variants" "an empty catalog"
fake mute
CONFORM_WORKER="$TMP/mute" expect_exit 2 "no answer" -- "$CONFORM" --suite "$TMP/one.suite" --all
expect_eq "$(cat "$TMP/err")" "conform: $TMP/mute --catalog listed no variants" "no answer"

finish
