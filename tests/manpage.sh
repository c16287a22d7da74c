#!/bin/sh
# manpage.sh - docs/conform.1 against the program, so that they cannot
# drift: every command conform --help lists has its --help (exit 0) and a
# SYNOPSIS line in the man page; the man page's EXIT STATUS names every exit
# code the commands' --help name.  tests/docs.sh checks that every long
# option a --help offers is in the man page.
. "$(dirname "$0")/lib.sh"
man1="$top_srcdir/docs/conform.1"
expect_exit 0 "conform --help" -- "$CONFORM" --help
commands=$(sed -n 's/^ *conform \([a-z][a-z]*\) .*/\1/p' "$TMP/out" | sort -u)
checks=$((checks + 1))
[ "$(echo "$commands" | wc -w)" -ge 9 ] || fail "conform --help lists only: $commands"
for c in $commands; do
	expect_exit 0 "conform $c --help" -- "$CONFORM" "$c" --help
	checks=$((checks + 1))
	grep -q "^\.B conform $c\( \|\$\)" "$man1" || [ "$c" = run ] || fail "conform.1: no SYNOPSIS line for $c"
	# The codes after "exit:", each a number before its meaning.
	for code in $(sed -n '/^exit:/,$p' "$TMP/out" | grep -oE '(^|[ ,:])(0|1|2|77|130) [a-z]' | tr -dc '0-9 \n'); do
		checks=$((checks + 1))
		sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man1" | grep -qw "$code" || fail "conform.1's EXIT STATUS lacks $c's exit $code"
	done
done
echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
