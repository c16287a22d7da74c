#!/bin/sh
# seed_listings.sh - scripts/seed-listings: the seeds' kernels as kernel
# files, the seed's lines byte for byte after the declaration, and the
# suite that runs them; every declaration of examples/seeds/ read by the
# real conform (its catalog), bad input said in one line with exit 2.
# The seeds are not part of the repository: made-up ones stand in, with
# the line numbers the specs name.  Where CONFORM_SEEDS names the real
# seeds' directory, the files are made from them too.
. "$(dirname "$0")/lib.sh"

GEN="$top_srcdir/scripts/seed-listings"
SPECS="$top_srcdir/examples/seeds"
mkdir -p "$TMP/seeds" "$TMP/spec"
# Seeds of 1300 lines "SEED NNN LINE K", tabs and a CR kept as they are.
for s in 000 002 003; do
	awk -v s=$s 'BEGIN { for (i = 1; i <= 1300; i++) printf "// SEED %s LINE %d\t \r\n", s, i }' \
		>"$TMP/seeds/${s}_0123456789abcdef.txt"
done

# A spec of two ranges and two case lines.
cat >"$TMP/spec/two.in" <<'SPEC'
// seed: 003 5-6 10-10
// case: n=1|33
// case: n=31 expect=fail
/*
 * @kind reduce
 * @entry k
 * @dtypes f32
 * @ops max
 * @block 32
 * @grid 1
 */
SPEC
expect_exit 0 "a spec of two ranges" -- python3 "$GEN" "$TMP/seeds" "$TMP/out1" "$TMP/spec"
expect_grep "$TMP/out" "^1 kernel files and listings.suite in " "what it wrote"
printf '/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n * @ops max\n * @block 32\n * @grid 1\n */\n' >"$TMP/want"
printf '// SEED 003 LINE %d\t \r\n' 5 6 10 >>"$TMP/want"
expect_exit 0 "the declaration, then the seed's lines byte for byte" -- cmp "$TMP/out1/two.cu" "$TMP/want"
expect_grep "$TMP/out1/listings.suite" "^kernel two\.cu$" "the suite names the file beside it"
expect_grep "$TMP/out1/listings.suite" \
	"^case listing\.two\.n\{n\} variant=user\.two dtype=f32 op=max n=1\|33$" "a case line per case: line"
expect_grep "$TMP/out1/listings.suite" "^case listing\.two\.n\{n\} variant=user\.two dtype=f32 op=max n=31 expect=fail$" \
	"the expectation kept"

# Bad input: one line, exit 2.
bad() {
	what=$1; shift
	expect_exit 2 "$what" -- python3 "$GEN" "$@"
	expect_eq "$(wc -l <"$TMP/err")" 1 "$what: one line"
	expect_grep "$TMP/err" "^seed-listings: " "$what: message"
}
bad "no arguments"
bad "seeds not a directory" "$TMP/nothing" "$TMP/o" "$TMP/spec"
printf '// seed: 003 1299-1301\n/*\n * @kind reduce\n */\n' >"$TMP/spec/two.in"
bad "a range past the seed's end" "$TMP/seeds" "$TMP/o" "$TMP/spec"
expect_grep "$TMP/err" "range '1299-1301' is not within seed 003's 1300 lines" "which range"
printf '// seed: 004 1-2\n/*\n * @kind reduce\n */\n' >"$TMP/spec/two.in"
bad "a seed that is not there" "$TMP/seeds" "$TMP/o" "$TMP/spec"
printf '// seed: 003 1-2\nint x;\n' >"$TMP/spec/two.in"
bad "no declaration" "$TMP/seeds" "$TMP/o" "$TMP/spec"

# Every spec of the repository makes a kernel file conform reads: its
# cases listed from the suite by the real conform and worker.
expect_exit 0 "examples/seeds" -- python3 "$GEN" "$TMP/seeds" "$TMP/listings" "$SPECS"
nspecs=$(ls "$SPECS"/*.in | wc -l)
expect_eq "$(ls "$TMP/listings"/*.cu | wc -l)" "$nspecs" "a kernel file per spec"
expect_exit 0 "the suite's cases" -- "$CONFORM" run --suite "$TMP/listings/listings.suite" --list
expect_eq "$(grep -c '^listing\.' "$TMP/out")" "$(grep -c . "$TMP/out")" "every case is a listing's"
for f in "$SPECS"/*.in; do
	name=$(basename "$f" .in)
	if grep -q '^// case: ' "$f"; then
		expect_grep "$TMP/out" "^listing\.$name\." "$name has cases"
	else
		expect_no_grep "$TMP/out" "^listing\.$name\." "$name: no case: line, no case"
	fi
done
expect_grep "$TMP/out" "^listing\.reduce_smem\.n1000$" "reduce_smem's sizes"
expect_grep "$TMP/out" "^listing\.warp_softmax\.r1001\.c4099$" "warp_softmax's shapes"

if [ -n "${CONFORM_SEEDS:-}" ] && [ -d "$CONFORM_SEEDS" ]; then
	expect_exit 0 "the real seeds" -- python3 "$GEN" "$CONFORM_SEEDS" "$TMP/real" "$SPECS"
	expect_grep "$TMP/real/full_reduce_sum.cu" "^__global__ void full_reduce_sum\(float\* output,$" \
		"the seed's text, as written"
fi
finish
