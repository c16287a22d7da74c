#!/bin/sh
# mutants.sh - the mutant corpus (tests/mutants/*.cu) and its runner
# (scripts/mutants), without a GPU: every file's declaration is read by
# the real conform and lists cases, every file carries mutant-bug and
# mutant-wrong, the expectations evaluate over the cases conform lists
# (--dry-run) to at least 22 mutants, each wrong somewhere, and 4
# controls; and the runner's verdicts, fed canned results by a stand-in
# conform: killed, missed, false failures, broken, shrunk cases at or off
# the declared boundary, no GPU, bad usage.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "python3 not found: scripts/mutants is not checked"
	exit 77
fi
RUNNER="$top_srcdir/scripts/mutants"
CORPUS="$top_srcdir/tests/mutants"

# Every file: a declaration conform reads (no GPU needed for --list), at
# least one case, and the two metadata lines.
files=0
for f in "$CORPUS"/*.cu; do
	b=$(basename "$f")
	files=$((files + 1))
	expect_exit 0 "$b: run --kernel --list" -- "$CONFORM" run --kernel "$f" --list
	expect_grep "$TMP/out" "^user\.[a-z0-9_]+\." "$b: lists its cases"
	expect_grep "$f" "^ \* mutant-bug: [^ ]" "$b: a mutant-bug line"
	expect_grep "$f" "^ \* mutant-wrong: [^ ]" "$b: a mutant-wrong line"
done
expect_eq "$([ "$files" -ge 26 ] && echo yes)" yes "at least 26 kernel files in tests/mutants ($files)"

# The expectations over the cases conform lists (mutant-args included):
# every file good, every mutant wrong somewhere, every control right.
expect_exit 0 "mutants --dry-run" -- python3 "$RUNNER" --conform "$CONFORM" --dry-run
expect_no_grep "$TMP/out" "^BAD " "--dry-run: no bad file"
summary=$(grep "^dry run: " "$TMP/out")
mutants=$(echo "$summary" | sed -n 's/^dry run: \([0-9]*\) mutants, .*/\1/p')
controls=$(echo "$summary" | sed -n 's/^dry run: [0-9]* mutants, \([0-9]*\) controls, .*/\1/p')
expect_eq "$([ "${mutants:-0}" -ge 22 ] && echo yes)" yes "at least 22 mutants (${mutants:-none})"
expect_eq "$([ "${controls:-0}" -ge 4 ] && echo yes)" yes "at least 4 controls (${controls:-none})"
expect_eq "$(grep -c '^mutant  ' "$TMP/out")" "${mutants:-x}" "a line per mutant"
expect_eq "$(grep -c '^mutant  .*, 0 wrong, ' "$TMP/out")" 0 "every mutant has a wrong case"
expect_eq "$(grep -c '^control .*, 0 wrong, ' "$TMP/out")" "${controls:-x}" "no control has a wrong case"

# A stand-in conform: `run --kernel F ... --list` prints the case names of
# $FAKE/NAME.jsonl (NAME: F's base name), `run --kernel F ... --json`
# prints the file and a summary and exits with $FAKE/NAME.rc (default 1).
# It records its arguments, so that mutant-args can be seen passed on.
cat >"$TMP/fake-conform" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE/args"
list=0
kernel=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift ;;
	--list) list=1 ;;
	esac
	shift
done
name=$(basename "$kernel" .cu)
if [ "$list" = 1 ]; then
	sed -n 's/^{"case":"\([^"]*\)".*/\1/p' "$FAKE/$name.jsonl"
	exit 0
fi
cat "$FAKE/$name.jsonl"
echo '{"summary":{"passed":0,"failed":0,"skipped":0,"interrupted":false,"device":"stand-in"}}'
if [ -f "$FAKE/$name.rc" ]; then exit "$(cat "$FAKE/$name.rc")"; fi
exit 1
EOF
chmod +x "$TMP/fake-conform"

# stub FILE WRONG [ARGS]: a kernel file with the metadata (the stand-in
# never reads the rest).
stub() {
	{
		printf '/*\n * A stand-in.\n *\n * @kind reduce\n * @entry k\n * @dtypes f32\n'
		printf ' * @block 32\n * @grid 1\n *\n * mutant-bug: bug of %s\n * mutant-wrong: %s\n' \
			"$(basename "$1" .cu)" "$2"
		[ -n "${3:-}" ] && printf ' * mutant-args: %s\n' "$3"
		printf ' */\nextern "C" __global__ void k(const T *in, T *out, long long n, void *s) {}\n'
	} >"$1"
}
# result NAME N STATUS [MESSAGE] [COLS]: one JSON result line of user.NAME.
result() {
	if [ -n "${5:-}" ]; then
		size="r$2.c$5" cols=$5
	else
		size="n$2" cols=0
	fi
	printf '{"case":"user.%s.sum.f32.%s","variant":"user.%s","dtype":"f32","n":%s,"cols":%s,' \
		"$1" "$size" "$1" "$2" "$cols"
	printf '"params":"op=sum","expect":"pass","status":"%s","observed":"x","message":"%s"}\n' \
		"$3" "${4:-}"
}

FAKE="$TMP/fake"
export FAKE
mkdir -p "$FAKE" "$TMP/k"
stub "$TMP/k/mut_a.cu" "n > 10" "--n 5,33,40 --dtype f32"
stub "$TMP/k/ctl_b.cu" "False"
stub "$TMP/k/rows_c.cu" "cols >= 2 and op == 'sum' and dtype == 'f32'"

# One wrong case passed (MISSED), one killed; a right case failed (a
# false failure); rows cases judged by their columns.
{
	result mut_a 5 PASS
	result mut_a 33 PASS
	result mut_a 40 FAIL "out[0]: got 1 want 2 | tol 0"
} >"$FAKE/mut_a.jsonl"
{
	result ctl_b 1 FAIL "out[0]: got 3 want 4"
	result ctl_b 2 PASS
} >"$FAKE/ctl_b.jsonl"
{
	result rows_c 3 PASS "" 1
	result rows_c 3 FAIL "out[1]: wrong" 7
} >"$FAKE/rows_c.jsonl"
expect_exit 1 "a missed case and a false failure: exit 1" -- \
	python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m1" "$TMP/k/mut_a.cu" "$TMP/k/ctl_b.cu" \
	"$TMP/k/rows_c.cu"
expect_grep "$TMP/out" "^MISSED +mut_a\.cu: wrong 2, killed 1, missed user\.mut_a\.sum\.f32\.n33, false failures -" \
	"the missed case is named"
expect_grep "$TMP/out" "^FALSE +ctl_b\.cu: wrong 0, killed 0, missed -, false failures user\.ctl_b\.sum\.f32\.n1" \
	"the false failure is named"
expect_grep "$TMP/out" "^ok +rows_c\.cu: wrong 1, killed 1, " "rows cases judged by cols"
expect_grep "$TMP/out" "-- bug of mut_a$" "each line says the bug"
expect_eq "$(tail -n 1 "$TMP/out")" "kill rate: 2/3 (66.7%), false failures: 1 of 4 right cases, broken: 0" \
	"the final line"
expect_grep "$FAKE/args" "^run --kernel $TMP/k/mut_a\.cu --json --db $TMP/m1/mutants\.db --n 5,33,40 --dtype f32$" \
	"mutant-args passed on to conform run"
cat >"$TMP/cases.py" <<'EOF'
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
n33 = [c for c in cases if c["case"].endswith(".n33")][0]
print(len(cases), sum(c["wrong"] for c in cases), n33["status"], n33["class"])
EOF
expect_eq "$(python3 "$TMP/cases.py" "$TMP/m1/mutants.json")" "7 3 PASS missed" \
	"mutants.json: every case with wrong, status and verdict"
expect_grep "$TMP/m1/mutants.md" "^\| mutant \| bug \| sizes where wrong \| what conform said \|$" "mutants.md: the table's header"
expect_grep "$TMP/m1/mutants.md" "^\| mut_a\.cu \| bug of mut_a \| n=33, n=40 \| FAIL at n=40: out\[0\]: got 1 want 2 \\\\\| tol 0 \|$" \
	"mutants.md: the sizes where wrong and the largest FAIL (| escaped)"

# Every wrong case killed, every right one passed: exit 0.
result mut_a 33 FAIL "out[0]: got 5" >"$FAKE/good.jsonl"
result mut_a 5 PASS >>"$FAKE/good.jsonl"
stub "$TMP/k/good.cu" "n > 10"
expect_exit 0 "everything killed: exit 0" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m2" "$TMP/k/good.cu"
expect_eq "$(tail -n 1 "$TMP/out")" "kill rate: 1/1 (100.0%), false failures: 0 of 1 right cases, broken: 0" \
	"everything killed: the final line"

# An ERROR (the kernel did not build) is broken: neither a kill nor a
# false failure, and the run fails.  So is a file without its metadata,
# and a run conform refuses.
result mut_a 33 ERROR "not built: k.cu:3: error: planted" >"$FAKE/err.jsonl"
stub "$TMP/k/err.cu" "n > 10"
printf '/*\n * @kind reduce\n */\n' >"$TMP/k/nometa.cu"
: >"$FAKE/refused.jsonl"
echo 2 >"$FAKE/refused.rc"
stub "$TMP/k/refused.cu" "True"
expect_exit 1 "broken cases: exit 1" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m3" \
	"$TMP/k/err.cu" "$TMP/k/nometa.cu" "$TMP/k/refused.cu"
expect_grep "$TMP/out" "^BROKEN +err\.cu: .*broken user\.mut_a\.sum\.f32\.n33 \(ERROR\)" "an ERROR is broken"
expect_grep "$TMP/out" "^BROKEN +nometa\.cu: no mutant-bug line" "no metadata: broken, said"
expect_grep "$TMP/out" "^BROKEN +refused\.cu: conform exited 2" "a refused run: broken, said"
expect_eq "$(tail -n 1 "$TMP/out")" "kill rate: 0/1 (0.0%), false failures: 0 of 0 right cases, broken: 3" \
	"broken: the final line"

# An ERROR the kernel raised as it ran (an illegal address) is its own
# fault: a kill for a wrong case, a false failure for a right one.
{
	result mut_a 33 ERROR "kernel: an illegal memory access was encountered"
	result mut_a 5 ERROR "kernel: an illegal memory access was encountered"
} >"$FAKE/kerr.jsonl"
stub "$TMP/k/kerr.cu" "n > 10"
expect_exit 1 "a kernel's own ERROR" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m5" "$TMP/k/kerr.cu"
expect_grep "$TMP/out" "^FALSE +kerr\.cu: wrong 1, killed 1, missed -, false failures user\.mut_a\.sum\.f32\.n5" \
	"a kernel's ERROR: killed where wrong, a false failure where right"
expect_eq "$(tail -n 1 "$TMP/out")" "kill rate: 1/1 (100.0%), false failures: 1 of 1 right cases, broken: 0" \
	"a kernel's ERROR: the final line"

# No GPU: conform skips everything and exits 77; so does the runner, in
# one line.
result mut_a 33 SKIP "no CUDA driver found" >"$FAKE/nogpu.jsonl"
echo 77 >"$FAKE/nogpu.rc"
stub "$TMP/k/nogpu.cu" "n > 10"
expect_exit 77 "no GPU: exit 77" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m4" \
	"$TMP/k/nogpu.cu" "$TMP/k/good.cu"
expect_eq "$(wc -l <"$TMP/out")" 1 "no GPU: one line"
expect_grep "$TMP/out" "^no GPU: .*no CUDA driver found" "no GPU: said, with conform's reason"

# --dry-run through the stand-in: the cases --list gives, judged.
expect_exit 0 "--dry-run with a stand-in" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --dry-run \
	"$TMP/k/mut_a.cu" "$TMP/k/ctl_b.cu"
expect_grep "$TMP/out" "^mutant +mut_a\.cu: 3 cases, 2 wrong, 1 right" "--dry-run: a mutant's counts"
expect_grep "$TMP/out" "^dry run: 1 mutants, 1 controls, 2 wrong cases, 3 right cases, 0 bad files$" "--dry-run: the totals"
stub "$TMP/k/never.cu" "n > 1000"
cp "$FAKE/mut_a.jsonl" "$FAKE/never.jsonl"
expect_exit 1 "--dry-run: a mutant never wrong" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --dry-run \
	"$TMP/k/never.cu"
expect_grep "$TMP/out" "^BAD +never\.cu: no wrong case" "--dry-run: a mutant never wrong is said"
stub "$TMP/k/typo.cu" "n >> > 3"
cp "$FAKE/mut_a.jsonl" "$FAKE/typo.jsonl"
expect_exit 1 "--dry-run: a bad expression" -- python3 "$RUNNER" --conform "$TMP/fake-conform" --dry-run \
	"$TMP/k/typo.cu"
expect_grep "$TMP/out" "^BAD +typo\.cu: mutant-wrong" "--dry-run: a bad expression is said"

# Bad usage: exit 2.
# Shrunk cases held to the declaration: conform's "diagnosis" lines name
# the smallest failing size and the passing one below it; at the declared
# boundary (n > 10: 11, passing at 10) it counts, one size off it does not
# (12, passing at 11, where the mutant is declared wrong) and fails the run.
# diag NAME N PASS_N: a diagnosis line of user.NAME.sum.f32.n33.
diag() {
	printf '{"diagnosis":{"case":"user.%s.sum.f32.n33","pattern":null,"shrunk":"smallest failing size n = %s","n":%s,"cols":0,"pass_n":%s,"pass_cols":0,"probes":5,"cut_short":false,"repro":"conform run"}}\n' \
		"$1" "$2" "$2" "$3"
}
stub "$TMP/k/shr_d.cu" "n > 10"
stub "$TMP/k/shr_e.cu" "n > 10"
{ result shr_d 5 PASS; result shr_d 33 FAIL "wrong"; diag shr_d 11 10; } >"$FAKE/shr_d.jsonl"
{ result shr_e 5 PASS; result shr_e 33 FAIL "wrong"; diag shr_e 12 11; } >"$FAKE/shr_e.jsonl"
expect_exit 0 "a case shrunk to the declared boundary" -- \
	python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m5" "$TMP/k/shr_d.cu"
expect_grep "$TMP/out" "^shrunk: 1 of 1 smallest failing cases at the declared boundary" "counted as at the boundary"
expect_exit 1 "a case shrunk past the boundary" -- \
	python3 "$RUNNER" --conform "$TMP/fake-conform" --out "$TMP/m6" "$TMP/k/shr_d.cu" "$TMP/k/shr_e.cu"
expect_grep "$TMP/out" "^SHRUNK\? shr_e\.cu: user\.shr_e\.sum\.f32\.n33: smallest failing size n = 12 \(declared wrong at it, wrong below it\)" \
	"the one off the boundary is named"
expect_grep "$TMP/out" "^shrunk: 1 of 2 " "and not counted"

expect_exit 2 "an unknown option" -- python3 "$RUNNER" --bogus
expect_exit 2 "a missing file" -- python3 "$RUNNER" --conform "$TMP/fake-conform" "$TMP/nope.cu"
expect_exit 2 "--conform without a value" -- python3 "$RUNNER" --conform
expect_exit 2 "a conform that is not there" -- python3 "$RUNNER" --conform "$TMP/nowhere" --dry-run
finish
