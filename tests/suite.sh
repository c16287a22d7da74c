#!/bin/sh
# suite.sh - suite files conform must refuse before anything runs: one line
# "conform: FILE:LINE: ...", exit 2, in well under 2 s and little memory
# whatever the input's size, and the database left as it was.
. "$(dirname "$0")/lib.sh"

# A database with a run in it: every refusal below must leave it as it is.
DB="$TMP/keep.db"
expect_exit 0 "a run to keep" -- "$CONFORM" --filter harness.pass.i32 --seed 1 --db "$DB"
sum_before=$(cksum <"$DB")

now_ms() { date +%s%3N; }

# refused FILE REGEX DESCRIPTION: exit 2 with the one-line message, within
# a second (loading reads no more than a suite file may hold).
refused() {
	t0=$(now_ms)
	expect_exit 2 "$3" -- "$CONFORM" --suite "$1" --all --db "$DB"
	ms=$(($(now_ms) - t0))
	expect_grep "$TMP/err" "^conform: $2" "$3: message"
	expect_eq "$(wc -l <"$TMP/err")" 1 "$3: one line"
	[ "$ms" -lt 1000 ] || fail "$3: took $ms ms"
}

# Bytes that are not text: a NUL ended the file (the first byte NUL: no
# cases, exit 0); ESC and the like reached the terminal and the database.
printf '\0case a.b variant=harness.pass n=1\n' >"$TMP/nul.suite"
refused "$TMP/nul.suite" "$TMP/nul.suite:1: control character 0x00 at column 1" "a NUL byte"
printf 'case a.b variant=harness.pass n=1\ncase \033[2Jx variant=harness.pass n=1\n' >"$TMP/esc.suite"
refused "$TMP/esc.suite" "$TMP/esc.suite:2: control character 0x1b at column 6 \(a suite file is printable text\)" "ESC in a name"
expect_no_grep "$TMP/err" "$(printf '\033')" "the ESC is not echoed"
printf 'case a.b variant=harness.pass n=1 # caf\303\251\n' >"$TMP/utf8.suite"
expect_exit 0 "UTF-8 in a comment" -- "$CONFORM" --suite "$TMP/utf8.suite" --all --list

# Sizes: /dev/zero and a 50 MB file were read until memory ran out.
yes 'case a.b variant=harness.pass n=1' | head -c 52428800 >"$TMP/50mb.suite"
refused "$TMP/50mb.suite" "$TMP/50mb.suite:30841: the file goes past 1048576 bytes here" "a 50 MB file"
# Only a regular file is read: a device or a FIFO (which would block the
# open until a writer came) is one line.
refused /dev/zero "/dev/zero: cannot read: it is a device, not a regular file" "/dev/zero"
refused /dev/urandom "/dev/urandom: cannot read: it is a device, not a regular file" "/dev/urandom"
mkfifo "$TMP/fifo.suite"
expect_exit 2 "a FIFO as --suite" -- timeout 20 "$CONFORM" --suite "$TMP/fifo.suite" --all --list
expect_grep "$TMP/err" "fifo.suite: cannot read: it is a FIFO, not a regular file" "a FIFO as --suite: why"
# How much memory: /usr/bin/time where there is one, else a ceiling on
# the address space (which a sanitizer's reserved shadow memory defeats:
# it is used only where conform starts under it).
for input in "$TMP/50mb.suite"; do
	if /usr/bin/time -v true >/dev/null 2>&1; then
		/usr/bin/time -v "$CONFORM" --suite "$input" --all --list 2>"$TMP/time" >/dev/null
		kb=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$TMP/time")
		[ -n "$kb" ] && [ "$kb" -lt 102400 ] || fail "$input: $kb kB resident, want under 100 MB"
		checks=$((checks + 1))
	elif (ulimit -v 102400 && "$CONFORM" --version) >/dev/null 2>&1; then
		(ulimit -v 102400 && "$CONFORM" --suite "$input" --all --list) >/dev/null 2>"$TMP/err"
		expect_grep "$TMP/err" "the file goes past" "$input in 100 MB of address space"
	fi
done

# A line of many keys was checked key against all keys (40000: 6.6 s).
awk 'BEGIN { printf "case a variant=harness.pass n=1"; for (i = 0; i < 40000; i++) printf " k%d=1", i; print "" }' \
	>"$TMP/keys.suite"
refused "$TMP/keys.suite" "$TMP/keys.suite:1: more than 32 key=value pairs on one line" "40000 keys"
awk 'BEGIN { printf "case a variant=harness.pass n=1"; for (i = 0; i < 30; i++) printf " key_%d=0123456789abcdef0123456789abcdef", i; print " Bad=1" }' \
	>"$TMP/params.suite"
refused "$TMP/params.suite" "$TMP/params.suite:1: parameters of case 'a' exceed 855 characters" "long parameters"

# 40 lines of two 256-value lists were 2.6 M cases (2.2 GB), and --list
# printed them all.
awk 'BEGIN { for (l = 0; l < 40; l++) { printf "case l%d.{a}.{b} variant=harness.pass n=1 a=1", l;
	for (i = 2; i <= 256; i++) printf "|%d", i; printf " b=1"; for (i = 2; i <= 256; i++) printf "|%d", i; print "" } }' \
	>"$TMP/lists.suite"
refused "$TMP/lists.suite" "$TMP/lists.suite:1: case 'l0.\{a\}.\{b\}' expands to more than 16384 cases" "256 x 256 cases"

# A suite's timeout had no bound (the command line's is a day).
printf 'case a.b variant=harness.pass n=1 timeout=999999999999999\n' >"$TMP/timeout.suite"
refused "$TMP/timeout.suite" "$TMP/timeout.suite:1: timeout must be a number of seconds in \(0, 86400\]" "a timeout of 10^15 s"
# The bound is the command line's: 86400 is taken by both.
printf 'case a.b variant=harness.pass n=1 timeout=86400\n' >"$TMP/day.suite"
expect_exit 0 "a day's timeout" -- "$CONFORM" --suite "$TMP/day.suite" --all --list --timeout 86400

# An op of 16 characters or more was stored as no op at all.
printf 'case a.b variant=harness.pass n=1 op=sumsumsumsumsumsum\n' >"$TMP/op.suite"
refused "$TMP/op.suite" "$TMP/op.suite:1: unknown op 'sumsumsumsumsumsum' \(one of sum, max, min\)" "a long op"

# Sizes no GPU can hold were an ERROR once the run had begun.
printf 'case a.big variant=harness.pass n=2^62\n' >"$TMP/n.suite"
refused "$TMP/n.suite" "$TMP/n.suite:1: n must be a count from 1 to 2\^40" "n=2^62"
expect_exit 2 "tune --n 2^41" -- "$CONFORM" tune harness.spin --n 2^41 --db "$DB"
expect_grep "$TMP/err" "^conform: --n: at most 2\^40 elements, got '2\^41'" "tune --n message"

# A dtype the variant lacks was an ERROR once the run had begun.
printf 'case a.u32 variant=harness.pass dtype=u32 n=10\n' >"$TMP/dtype.suite"
refused "$TMP/dtype.suite" "$TMP/dtype.suite:1: case 'a.u32': harness.pass does not support dtype u32 \(it has f32,f64,i32\)" "a dtype the variant lacks"

# A parameter the variant does not read was ignored without a word; a
# template variable, which only names the variant, still passes.
printf 'case a.spin variant=harness.spin blok=64 n=10\n' >"$TMP/key.suite"
refused "$TMP/key.suite" "$TMP/key.suite:1: case 'a.spin': harness.spin has no parameter 'blok' \(it takes op, block, items, vec\)" "an unknown parameter"
printf 'case a.{v} variant=harness.{v} v=pass|copy n=10\n' >"$TMP/template.suite"
expect_exit 0 "a template variable" -- "$CONFORM" --suite "$TMP/template.suite" --all --list

# The TUI loads the same suites and checks them the same way, before it
# takes the terminal (script(1) gives it one).
if timeout 10 script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	expect_exit 2 "the TUI refuses a bad case" -- timeout 10 script -qec "'$CONFORM' tui --suite '$TMP/dtype.suite' --db '$DB'" /dev/null
	expect_grep "$TMP/out" "dtype.suite:1: case 'a.u32': harness.pass does not support dtype u32" "the TUI's message"
fi

expect_eq "$(cksum <"$DB")" "$sum_before" "the database is as it was"
finish
