#!/bin/sh
# user_kernels.sh - kernel files through the real conform and worker:
# the cases run --kernel makes (the size ladder, --n, --dtype, --kernels
# DIR), --variants, bad input said in one line with exit 2, and a run
# without a GPU: every case SKIP with the reason, stored, exit 77.
. "$(dirname "$0")/lib.sh"

# kernel FILE NAME KIND DTYPES [DIRECTIVE...]: a kernel file whose
# declaration is the given directives after @kind, @entry, @dtypes, @block
# and @grid; its entry reduces with one block (a correct kernel, for a
# machine that runs it).
kernel() {
	file=$1 entry=$2 kind=$3 dtypes=$4
	shift 4
	{
		printf '/*\n * A test kernel.\n *\n'
		printf ' * @kind %s\n * @entry %s\n * @dtypes %s\n' "$kind" "$entry" "$dtypes"
		printf ' * @tunable block 32..1024 pow2 default=128\n * @block block\n * @grid 1\n'
		for d in "$@"; do printf ' * %s\n' "$d"; done
		printf ' */\n'
		if [ "$kind" = reduce ]; then
			printf 'extern "C" __global__ void %s(const T *in, T *out, long long n, void *scratch)\n' "$entry"
			printf '{\n\t__shared__ T part[BLOCK];\n\tT acc = conform_identity<T>();\n'
			printf '\tfor (long long i = threadIdx.x; i < n; i += BLOCK)\n\t\tacc = conform_combine(acc, in[i]);\n'
			printf '\tpart[threadIdx.x] = acc;\n\t__syncthreads();\n\tif (threadIdx.x == 0) {\n'
			printf '\t\tfor (int i = 1; i < BLOCK; i++)\n\t\t\tacc = conform_combine(acc, part[i]);\n'
			printf '\t\tout[0] = acc;\n\t}\n}\n'
		else
			printf 'extern "C" __global__ void %s(const T *in, T *out, long long rows, long long cols,\n' "$entry"
			printf '\tvoid *scratch)\n{\n\tif (threadIdx.x == 0)\n\t\tfor (long long r = 0; r < rows; r++) {\n'
			printf '\t\t\tT acc = conform_identity<T>();\n\t\t\tfor (long long c = 0; c < cols; c++)\n'
			printf '\t\t\t\tacc = conform_combine(acc, in[r * cols + c]);\n\t\t\tout[r] = acc;\n\t\t}\n}\n'
		fi
	} >"$file"
}

mkdir -p "$TMP/k" "$TMP/empty" "$TMP/dup"
kernel "$TMP/k/Grid-Sum.cu" grid_sum reduce "f32 f64" "@ops sum max"
kernel "$TMP/k/b_rows.cu" row_sum rows f32
echo "not a kernel" >"$TMP/k/README.txt"
: >"$TMP/k/.hidden.cu"
echo "int x;" >"$TMP/empty/notes.txt"
F="$TMP/k/Grid-Sum.cu"

# The ladder: every dtype and op over the sizes that break reductions,
# 2^31 + 3 once per kernel.
expect_exit 0 "--kernel --list" -- "$CONFORM" run --kernel "$F" --list
expect_grep "$TMP/out" "^user\.grid_sum\.sum\.f32\.n33$" "the ladder holds n=33 (name from the file name)"
expect_grep "$TMP/out" "^user\.grid_sum\.max\.f64\.n1000003$" "the ladder holds each dtype and op"
expect_grep "$TMP/out" "^user\.grid_sum\.sum\.f32\.n16777217$" "the ladder holds 2^24 + 1"
expect_eq "$(grep -c 'n2147483651$' "$TMP/out")" 1 "2^31 + 3 once per kernel"
expect_eq "$(grep 'n2147483651$' "$TMP/out")" "user.grid_sum.sum.f32.n2147483651" "2^31 + 3 for the first dtype and op"
expect_eq "$(wc -l <"$TMP/out")" $((2 * 2 * 11 + 1)) "2 dtypes x 2 ops x 11 sizes, and 2^31 + 3"
expect_eq "$(grep -vc '^user\.grid_sum\.' "$TMP/out")" 0 "--kernel alone lists only its cases"
expect_eq "$(sort "$TMP/out" | uniq -d | wc -l)" 0 "no case twice"

# --n and --dtype replace the ladder.
expect_exit 0 "--n --dtype" -- "$CONFORM" run --kernel "$F" --n 5,7 --dtype f32 --list
expect_eq "$(cat "$TMP/out" | tr '\n' ' ')" \
	"user.grid_sum.sum.f32.n5 user.grid_sum.sum.f32.n7 user.grid_sum.max.f32.n5 user.grid_sum.max.f32.n7 " \
	"--n 5,7 --dtype f32"
expect_exit 0 "--n 2^K" -- "$CONFORM" run --kernel "$F" --n 2^10 --dtype f64 --list
expect_eq "$(cat "$TMP/out" | tr '\n' ' ')" "user.grid_sum.sum.f64.n1024 user.grid_sum.max.f64.n1024 " "--n 2^10"
expect_exit 0 "--filter with --kernel" -- "$CONFORM" run --kernel "$F" --filter 'user.*.max.f64.n33' --list
expect_eq "$(cat "$TMP/out")" "user.grid_sum.max.f64.n33" "--filter selects among the kernel's cases"

# --kernels DIR: every .cu file in name order (B before b: byte order),
# nothing else of the directory.
expect_exit 0 "--kernels" -- "$CONFORM" run --kernels "$TMP/k" --list
expect_eq "$(sed 's/^\(user\.[a-z_]*\)\..*/\1/' "$TMP/out" | uniq | tr '\n' ' ')" "user.grid_sum user.b_rows " \
	"--kernels takes every .cu in name order"
expect_grep "$TMP/out" "^user\.b_rows\.sum\.f32\.r7\.c33$" "a rows kernel's ladder is rows x cols"
expect_grep "$TMP/out" "^user\.b_rows\.sum\.f32\.r4\.c1048577$" "a rows kernel's ladder holds long rows"
expect_grep "$TMP/out" "^user\.b_rows\.sum\.f32\.r2095107\.c1025$" "a rows kernel's ladder reaches past 32-bit indices"
expect_exit 0 "rows --n --cols" -- "$CONFORM" run --kernels "$TMP/k" --n 3 --cols 1,64 --dtype f32 --list
expect_grep "$TMP/out" "^user\.b_rows\.sum\.f32\.r3\.c64$" "--n and --cols make rows x cols"
expect_eq "$(grep -c '^user\.b_rows' "$TMP/out")" 2 "rows x cols: 1 x 2 cases"

# The rows and softmax ladders past 32-bit indices: one shape per kernel,
# for its smallest dtype and first operator, of more than 2^31 elements
# and with (rows - 1) * cols > 2^31 - 1, where a 32-bit row * cols wraps;
# 1025 columns unless the kernel's @rule refuses them, then the first
# other candidate it takes (common/huge_shape.h); none for a kernel
# declared to hang.
mkdir -p "$TMP/huge"
kernel "$TMP/huge/h_rows.cu" h_rows rows "f32 bf16" "@ops sum max"
kernel "$TMP/huge/h_soft.cu" h_soft softmax "f32 bf16"
kernel "$TMP/huge/h_rule.cu" h_rule softmax f32 "@rule cols <= 1024 ; a row per block"
kernel "$TMP/huge/h_warp.cu" h_warp rows f32 "@rule cols <= block / 4 ; a row per warp of float4"
kernel "$TMP/huge/h_hang.cu" h_hang rows f32 "@expect hang"
expect_exit 0 "rows and softmax ladders" -- "$CONFORM" run --kernels "$TMP/huge" --list
for v in h_rows h_soft h_rule h_warp; do
	big=$(sed -n "s/^user\.$v\..*\.r\([0-9]*\)\.c\([0-9]*\)\$/\1 \2/p" "$TMP/out" |
		while read -r rows cols; do [ $((rows * cols)) -gt 2147483648 ] && echo "$rows $cols"; done)
	expect_eq "$(echo "$big" | grep -c .)" 1 "$v: one case past 2^31 elements"
	rows=${big% *} cols=${big#* }
	expect_eq "$([ $(((rows - 1) * cols)) -gt 2147483647 ] && echo yes)" yes \
		"$v: (rows - 1) * cols > 2^31 - 1 (${rows} x ${cols})"
	expect_eq "$([ $(((rows - 2) * cols)) -le 2147483647 ] && echo yes)" yes "$v: the fewest rows that do (${rows} x ${cols})"
done
expect_grep "$TMP/out" "^user\.h_rows\.sum\.bf16\.r2095107\.c1025$" "rows: 2095107 x 1025, for the smallest dtype and first op"
expect_eq "$(grep -c '^user\.h_rows\.' "$TMP/out")" $((2 * 2 * 8 + 1)) "rows: 2 dtypes x 2 ops x 8 shapes, and one past 32 bits"
expect_grep "$TMP/out" "^user\.h_soft\.bf16\.r2095107\.c1025$" "softmax: 2095107 x 1025, for the smallest dtype"
expect_eq "$(grep -c '^user\.h_soft\.' "$TMP/out")" $((2 * 8 + 1)) "softmax: 2 dtypes x 8 shapes, and one past 32 bits"
expect_grep "$TMP/out" "^user\.h_rule\.f32\.r2147485\.c1000$" "cols <= 1024 refuses 1025 columns: 1000 columns"
expect_grep "$TMP/out" "^user\.h_warp\.sum\.f32\.r67108865\.c32$" "cols <= block / 4 (block=128): 32 columns"
expect_eq "$(grep -c '^user\.h_hang\.' "$TMP/out")" 8 "declared to hang: no shape past 32 bits"
# --n or --cols replace the whole ladder, that shape included.
expect_exit 0 "rows --n: no shape past 32 bits" -- "$CONFORM" run --kernels "$TMP/huge" --n 3 --list
expect_no_grep "$TMP/out" "\.r(2095107|2147485|67108865)\." "--n: no shape past 32 bits"

# --variants lists the kernel file's variant with its dtypes and tunables.
expect_exit 0 "--variants --kernel" -- "$CONFORM" run --variants --kernel "$F"
expect_grep "$TMP/out" "^user\.grid_sum " "--variants shows user.grid_sum"
expect_grep "$TMP/out" "^user\.grid_sum .*f32,f64" "--variants shows its dtypes"
expect_grep "$TMP/out" "^harness\.pass" "--variants still shows the built-in variants"

# limits_kernel FILE COUNT [DIRECTIVE...]: a kernel file declaring COUNT
# tunables of the longest name over the whole of an int, with the longest
# description (the most a declaration holds is twelve, tunable_limits.h),
# then the directives.
limits_kernel() {
	file=$1 count=$2
	shift 2
	{
		printf '/*\n * @kind reduce\n * @entry k\n * @dtypes f32\n'
		i=1
		while [ "$i" -le "$count" ]; do
			printf ' * @tunable tunable_with_a_long_name_nmbr_%02d -2147483648..2147483647 ' "$i"
			printf 'pow2 multiple=1024 default=1073741824 space=1024,1073741824 "a tunable"\n'
			i=$((i + 1))
		done
		for d in "$@"; do printf ' * %s\n' "$d"; done
		printf ' * @block 32\n * @grid 1\n */\n'
		printf 'extern "C" __global__ void k(const T *in, T *out, long long n, void *scratch) {}\n'
	} >"$file"
}

# Twelve tunables: the worker's catalog carries them whole, run lists the
# kernel's case, and tune builds its space (the search itself needs a GPU).
mkdir -p "$TMP/limits" "$TMP/over"
limits_kernel "$TMP/limits/twelve.cu" 12
expect_exit 0 "twelve tunables: the catalog" -- "$top_builddir/conform-worker" --catalog --kernel "$TMP/limits/twelve.cu"
expect_grep "$TMP/out" "^variant	user\.twelve	.* tunable_with_a_long_name_nmbr_12=-2147483648\.\.2147483647 \(power of two\) \(multiple of 1024\)	" \
	"twelve tunables: the catalog's tunables whole"
expect_grep "$TMP/out" "	tunable_with_a_long_name_nmbr_01=1024,1073741824 .* tunable_with_a_long_name_nmbr_12=1024,1073741824	" \
	"twelve tunables: the catalog's space whole"
expect_exit 0 "twelve tunables: run --list" -- "$CONFORM" run --kernel "$TMP/limits/twelve.cu" --n 5 --list
expect_eq "$(cat "$TMP/out")" "user.twelve.sum.f32.n5" "twelve tunables: the case"
expect_exit 0 "twelve tunables: --variants" -- "$CONFORM" run --variants --kernel "$TMP/limits/twelve.cu"
expect_grep "$TMP/out" "^user\.twelve " "twelve tunables: --variants"
"$CONFORM" tune --kernel "$TMP/limits/twelve.cu" --n 5 --dtype f32 --strategy random --budget 1 \
	--db "$TMP/limits.db" >"$TMP/out" 2>"$TMP/err"
rc=$?
checks=$((checks + 1))
[ "$rc" -ne 2 ] || { fail "twelve tunables: tune refused them"; sed 's/^/  | /' "$TMP/err" >&2; }
expect_no_grep "$TMP/err" "tuning space|does not fit" "twelve tunables: tune builds the space"
# A thirteenth, a range outside an int, a default the tunable does not
# take: one line naming the file, the line and the tunable, exit 2, for
# run, tune and --kernels alike.
limits_kernel "$TMP/over/thirteen.cu" 13
limits_kernel "$TMP/over/wide.cu" 0 "@tunable a 9223372036854775800..9223372036854775807 multiple=1024"
limits_kernel "$TMP/over/self.cu" 0 "@tunable a 1..8 default=a+1"
limits_kernel "$TMP/over/list.cu" 0 "@tunable a 1|2|4 default=2" "@tunable b 1|2|4 default=a+1"
for f in thirteen:17:"at most 12 tunables" \
	wide:5:"tunable a: range '9223372036854775800\.\.9223372036854775807' goes outside an int" \
	self:5:"tunable a: default=a\+1 names a itself" \
	list:6:"tunable b: default=a\+1: b=3 is not one of 1\|2\|4"; do
	name=${f%%:*} rest=${f#*:}
	line=${rest%%:*} why=${rest#*:}
	rm -rf "$TMP/one" && mkdir "$TMP/one" && cp "$TMP/over/$name.cu" "$TMP/one/"
	one_line_exit2 "$name: run --kernel" "$CONFORM" run --kernel "$TMP/over/$name.cu" --list
	expect_grep "$TMP/err" "^conform: $TMP/over/$name\.cu:$line: $why" "$name: run --kernel says FILE:LINE: why"
	one_line_exit2 "$name: tune --kernel" "$CONFORM" tune --kernel "$TMP/over/$name.cu" --n 5 --dtype f32 \
		--db "$TMP/limits.db"
	expect_grep "$TMP/err" "^conform: $TMP/over/$name\.cu:$line: $why" "$name: tune --kernel says FILE:LINE: why"
	one_line_exit2 "$name: --kernels" "$CONFORM" run --kernels "$TMP/one" --list
	expect_grep "$TMP/err" "^conform: $TMP/one/$name\.cu:$line: $why" "$name: --kernels says FILE:LINE: why"
done

# Bad input: one line, exit 2, before anything runs.
one_line_exit2 "missing kernel file" "$CONFORM" run --kernel "$TMP/nope.cu" --list
expect_grep "$TMP/err" "^conform: --kernel $TMP/nope.cu: cannot read" "missing file: said with its path"
one_line_exit2 "a directory given to --kernel" "$CONFORM" run --kernel "$TMP/k" --list
expect_grep "$TMP/err" "a directory \(use --kernels DIR" "a directory: --kernels suggested"
one_line_exit2 "--kernels without .cu files" "$CONFORM" run --kernels "$TMP/empty" --list
expect_grep "$TMP/err" "$TMP/empty: no \.cu file in it" "--kernels without .cu: said"
one_line_exit2 "--kernels on a missing directory" "$CONFORM" run --kernels "$TMP/nowhere" --list
# A FIFO as the kernel file, or the pipe of <(...): refused at once, in one
# line that says why (every worker reads the file again), before a worker
# starts; as a file it includes: refused by the line that includes it (the
# compiler would wait for a writer).  No wait for a writer either way.
mkfifo "$TMP/fifo.cu" "$TMP/fifo.cuh"
one_line_exit2 "a FIFO as --kernel" timeout 20 "$CONFORM" run --kernel "$TMP/fifo.cu" --list
expect_grep "$TMP/err" "^conform: --kernel $TMP/fifo\.cu: cannot read: it is a FIFO, not a regular file \(a kernel file is read again by every worker: save it to a file\)$" \
	"a FIFO as --kernel: why"
if command -v bash >/dev/null 2>&1; then # <(...) is bash's
	bash -c '"$1" run --kernel <(cat "$2") --list' sh "$CONFORM" "$F" >"$TMP/out" 2>"$TMP/err"
	expect_eq "$?" 2 "--kernel <(cat F): exit 2"
	expect_eq "$(wc -l <"$TMP/err")" 1 "--kernel <(cat F): one line"
	expect_grep "$TMP/err" "^conform: --kernel /dev/fd/[0-9]+: cannot read: it is a FIFO, not a regular file \(a kernel file is read again by every worker: save it to a file\)$" \
		"--kernel <(cat F): save it to a file"
fi
printf '/*\n * @kind reduce\n * @entry incl\n * @dtypes f32\n * @block 32\n * @grid 1\n */\n#include "fifo.cuh"\n' >"$TMP/incl.cu"
printf 'extern "C" __global__ void incl(const T *in, T *out, long long n, void *scratch) {}\n' >>"$TMP/incl.cu"
one_line_exit2 "a FIFO #included" timeout 20 "$CONFORM" run --kernel "$TMP/incl.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/incl\.cu:8: #include \"fifo\.cuh\": it is a FIFO, not a regular file$" \
	"a FIFO #included: the file, the line and the include named"
# Every quoted include beside the file is read for its hash: 5000 of them, or
# more bytes than any kernel's helpers, are refused by the line that passes
# the bound, not left to run out the catalog's deadline.
head -c 1000000 /dev/zero | tr '\0' ' ' >"$TMP/big.cuh"
echo '// a helper' >"$TMP/small.cuh"
for inc in big small; do
	{
		printf '/*\n * @kind reduce\n * @entry many\n * @dtypes f32\n * @block 32\n * @grid 1\n */\n'
		awk -v f="$inc.cuh" 'BEGIN { for (i = 0; i < 5000; i++) printf "#include \"%s\"\n", f }'
		printf 'extern "C" __global__ void many(const T *in, T *out, long long n, void *scratch) {}\n'
	} >"$TMP/many_$inc.cu"
done
one_line_exit2 "5000 includes of a large file" "$CONFORM" run --kernel "$TMP/many_big.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/many_big\.cu:12: #include \"big\.cuh\": the files included come to more than 4 MiB" \
	"5000 includes of a large file: the file, the line and the include named"
one_line_exit2 "5000 includes of a small file" "$CONFORM" run --kernel "$TMP/many_small.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/many_small\.cu:72: more than 64 #include \"\.\.\.\" lines" \
	"5000 includes of a small file: the file and the line past the bound named"
# A name holding a tab, a line break, an escape or a byte that is not UTF-8
# is refused in one line, shown with '?' for what cannot be printed, given
# by --kernel or found by --kernels: never two lines, raw control bytes, or
# a file silently left out.
for spec in 'a tab|tab\tin.cu' 'a line break|line\nbreak.cu' 'an escape|esc\033[31m.cu' 'byte 0xff|byte\377.cu'; do
	label=${spec%%|*} bad=${spec#*|}
	rm -rf "$TMP/names" && mkdir "$TMP/names"
	name=$(printf "$bad")
	kernel "$TMP/names/$name" k reduce f32
	kernel "$TMP/names/good.cu" good reduce f32
	shown=$(printf '%s' "$bad" | sed 's/\\033/?/; s/\\377/?/; s/\\[tn]/?/; s/[][?.]/\\&/g')
	for how in --kernel --kernels; do
		[ $how = --kernel ] && arg="$TMP/names/$name" || arg="$TMP/names"
		one_line_exit2 "$how, $label in a name" "$CONFORM" run $how "$arg" --list
		expect_grep "$TMP/err" "^conform: $how $TMP/names/$shown: a control character or a byte that is not UTF-8 in the file's name \(shown as '\?'\): rename it$" \
			"$how, $label in a name: named, sanitised"
		expect_eq "$(tr -d '\n' <"$TMP/err" | LC_ALL=C tr -d '[:print:]' | wc -c)" 0 "$how, $label in a name: printable"
	done
done
# A directory whose name ends in .cu is not a kernel file: --kernels passes
# over it; alone, it is the directory no .cu file is in.
mkdir -p "$TMP/withdir/sub.cu" "$TMP/onlydir/sub.cu"
kernel "$TMP/withdir/one.cu" one reduce f32
expect_exit 0 "--kernels with a directory named sub.cu" -- "$CONFORM" run --kernels "$TMP/withdir" --list
expect_eq "$(sed 's/^\(user\.[a-z_]*\)\..*/\1/' "$TMP/out" | uniq)" "user.one" "a directory named sub.cu is no kernel"
expect_eq "$(wc -c <"$TMP/err")" 0 "a directory named sub.cu: nothing said"
one_line_exit2 "--kernels with only a directory named sub.cu" "$CONFORM" run --kernels "$TMP/onlydir" --list
expect_grep "$TMP/err" "^conform: --kernels $TMP/onlydir: no \.cu file in it$" "only a directory named sub.cu: no .cu file"
printf '/*\n * @kind reduce\n * @kernel k\n */\n' >"$TMP/bad.cu"
one_line_exit2 "malformed declaration" "$CONFORM" run --kernel "$TMP/bad.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/bad\.cu:3: unknown directive '@kernel'" "malformed: FILE:LINE: why"
kernel "$TMP/args_bad.cu" k reduce f32 "@args in n"
one_line_exit2 "@args without out" "$CONFORM" run --kernel "$TMP/args_bad.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/args_bad\.cu:[0-9]+: @args: the entry must take both in and out$" "@args: FILE:LINE: why"
kernel "$TMP/args_ws.cu" k reduce f32 "@args in out n" "@workspace 4 * n"
one_line_exit2 "@args without the workspace" "$CONFORM" run --kernel "$TMP/args_ws.cu" --list
expect_grep "$TMP/err" "@args passes no scratch, but @workspace \(line [0-9]+\) asks for some" "@workspace unpassed: said"
# A template entry and its own parameter order are read as declared.
kernel "$TMP/tmpl.cu" k reduce f32 "@args out in n/2"
sed -i 's/^ \* @entry k$/ * @entry k<BLOCK, 4>/' "$TMP/tmpl.cu"
expect_exit 0 "a template entry with @args" -- "$CONFORM" run --kernel "$TMP/tmpl.cu" --list
expect_grep "$TMP/out" "^user\.tmpl\.sum\.f32\.n33$" "a template entry's cases"
kernel "$TMP/undeclared.cu" k reduce f32 "@rule block * items <= 1024"
one_line_exit2 "an undeclared tunable" "$CONFORM" run --kernel "$TMP/undeclared.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/undeclared\.cu:[0-9]+: @rule .*not a declared tunable" "undeclared: FILE:LINE"
printf 'int x;\n' >"$TMP/nodecl.cu"
one_line_exit2 "no declaration" "$CONFORM" run --kernel "$TMP/nodecl.cu" --list
expect_grep "$TMP/err" "^conform: $TMP/nodecl\.cu: no declaration" "no declaration: said"
kernel "$TMP/dup/one.cu" k reduce f32 "@name same"
kernel "$TMP/dup/two.cu" k reduce f32 "@name same"
one_line_exit2 "two files with one name" "$CONFORM" run --kernels "$TMP/dup" --list
expect_grep "$TMP/err" "two\.cu: user\.same is already taken by another kernel file" "same name: said"
# The same file twice, by two paths, is read once: its cases once.
expect_exit 0 "the same file twice" -- "$CONFORM" run --kernel "$F" --kernel "$(dirname "$F")/./$(basename "$F")" --list
expect_eq "$(grep -c '\.n33$' "$TMP/out")" "$(sed -n '/\.n33$/p' "$TMP/out" | sort -u | wc -l)" "the same file twice: each case once"
one_line_exit2 "--n without --kernel" "$CONFORM" run --n 5,7 --list
expect_grep "$TMP/err" "choose the sizes of --kernel files' cases, or of the cases --filter selects" "--n without --kernel: said"
one_line_exit2 "--dtype without --kernel" "$CONFORM" run --dtype f32 --list
one_line_exit2 "--dtype no kernel declares" "$CONFORM" run --kernel "$F" --dtype i32 --list
expect_grep "$TMP/err" "^conform: --dtype i32: no kernel file declares it" "--dtype undeclared: said"
one_line_exit2 "--n 0" "$CONFORM" run --kernel "$F" --n 0 --list
one_line_exit2 "--n 5,,7" "$CONFORM" run --kernel "$F" --n 5,,7 --list
# The files given before a usage error are let go (the ASan build's
# LeakSanitizer turns a leak into exit 1).
one_line_exit2 "run --kernel, then an unknown option" "$CONFORM" run --kernel "$F" --bogus
one_line_exit2 "tune --kernel without --n" "$CONFORM" tune --kernel "$F"
expect_grep "$TMP/err" "^conform: tune: --n LIST is required" "tune --kernel without --n: said"
one_line_exit2 "tune --kernel with a bad --n" "$CONFORM" tune --kernel "$F" --n 0 --dtype f32
one_line_exit2 "tui --kernel without a terminal" "$CONFORM" tui --kernel "$F"
one_line_exit2 "tui --kernel, then an unknown option" "$CONFORM" tui --kernel "$F" --bogus

# Without a GPU every case is SKIP with the reason, stored, and the run
# exits 77, as every GPU case does.
"$CONFORM" run --kernel "$F" --n 1,33 --seed 5 --db "$TMP/x.db" >"$TMP/out" 2>"$TMP/err"
rc=$?
if ! gpu_present; then
	expect_eq "$rc" 77 "--kernel without a GPU exits 77"
	expect_grep "$TMP/out" "^no GPU: .*GPU cases are skipped; 8 cases" "--kernel without a GPU says why"
	expect_grep "$TMP/out" "^0 passed, 0 failed, 8 skipped$" "every case skipped"
	expect_eq "$(sql "$TMP/x.db" "select count(*) from results")" 8 "every case stored"
	expect_eq "$(sql "$TMP/x.db" "select count(*) from results where status = 'SKIP' and observed = 'skipped' and message <> ''")" 8 \
		"every case stored as SKIP with its reason"
	expect_eq "$(sql "$TMP/x.db" "select distinct variant || ' ' || kernel from results")" "user.grid_sum user" \
		"stored under user.NAME"
	expect_eq "$(sql "$TMP/x.db" "select group_concat(case_name, ' ') from (select case_name from results order by id)")" \
		"user.grid_sum.sum.f32.n1 user.grid_sum.sum.f32.n33 user.grid_sum.max.f32.n1 user.grid_sum.max.f32.n33 user.grid_sum.sum.f64.n1 user.grid_sum.sum.f64.n33 user.grid_sum.max.f64.n1 user.grid_sum.max.f64.n33" \
		"the cases stored in order"
	expect_eq "$(sql "$TMP/x.db" "select count(*) from results where case_name like '%.max.%' and params = 'op=max'")" 4 \
		"each case names its operator"
	expect_eq "$(sql "$TMP/x.db" "select seed, state, skipped from runs")" "5|complete|8" "the run stored"
else
	echo "a GPU is present: the no-GPU run of --kernel is not checked here"
fi
# A case whose build fails is an ERROR whatever it expected: a stand-in
# worker (the real catalog, a greeting of a GPU it does not have) answers
# every BUILD with a compile error, and the kernel declares a hang, then an
# undefined result; neither may turn the error into XFAIL or PASS.  The
# results also carry the source hash the catalog gave.
{
	echo '#!/bin/sh'
	echo "[ \"\$1\" = --catalog ] && exec \"$top_builddir/conform-worker\" \"\$@\""
	printf '%s\n' "printf 'HELLO\\t0\\tStand-in GPU\\tGPU-0\\t9\\t0\\t132\\t85899345920\\t13000\\t13000\\n'"
	printf '%s\n' 'while read -r verb seq rest; do'
	printf '%s\n' "	printf 'DONE\\t%s\\terror\\t0\\t-1\\t-1\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\t0\\t0\\t0\\t-1\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t0\\t-\\tk.cu:3: error: planted\\n' \"\$seq\""
	printf '%s\n' 'done'
} >"$TMP/nobuild"
chmod +x "$TMP/nobuild"
for expect in hang undefined; do
	kernel "$TMP/k_$expect.cu" k reduce f32 "@expect $expect"
	CONFORM_WORKER="$TMP/nobuild" expect_exit 1 "a failed build, @expect $expect" -- \
		"$CONFORM" run --kernel "$TMP/k_$expect.cu" --n 33 --db "$TMP/nobuild.db"
	expect_grep "$TMP/out" "^ERROR   user\.k_$expect\.sum\.f32\.n33.*: not built: k\.cu:3: error: planted" \
		"a failed build, @expect $expect: ERROR with the compiler's message"
done
if command -v sqlite3 >/dev/null 2>&1; then
	expect_eq "$(sqlite3 "$TMP/nobuild.db" "select count(distinct source) from results where length(source) = 64")" 2 \
		"each result carries its file's source hash"
fi
# A worker is told each file's hash as the catalog read it: a file edited
# since is refused, case by case, rather than run and stored under the hash
# of the text before the edit.
good=$(sed -n 's/^variant\tuser\.grid_sum\t.*\treduce\t\([0-9a-f]*\)\t.*/\1/p' <<EOF2
$("$top_builddir/conform-worker" --catalog --kernel "$F")
EOF2
)
expect_eq "${#good}" 64 "the catalog gives the file's SHA-256"
for hash in "$good" 0000000000000000000000000000000000000000000000000000000000000000; do
	printf 'RUN\t1\tc\tuser.grid_sum\tf32\t33\t0\t1\top=sum\t-\n' |
		"$top_builddir/conform-worker" --device 0 --kernel "$F" --source "$hash" >"$TMP/changed.out" 2>/dev/null
	if [ "$hash" = "$good" ]; then
		expect_no_grep "$TMP/changed.out" "changed since" "the same source: no refusal"
	else
		expect_grep "$TMP/changed.out" "^DONE	1	error	.*Grid-Sum\.cu changed since this run read it" \
			"an edited file: its cases refused"
	fi
done

# Compiles ahead (docs/kernels.md, "Compilation"), on a pretend device of
# sm_90 where NVRTC is: compile-only workers compile every configuration a
# tune asks for before its case comes (the case then waits for them),
# into the cache one compile-only worker fills one BUILD after another;
# a second tune finds every one in the cache; a compile error is each
# case's ERROR at the file's line, in a run as in a tune.
mkdir -p "$TMP/ahead"
kernel "$TMP/ahead/tiles.cu" tiles reduce f32 "@tunable items 1|2|4 default=1 space=1,2" \
	"@summary items per thread: ITEMS"
sed -i 's/@tunable block 32..1024 pow2 default=128$/& space=64,128/' "$TMP/ahead/tiles.cu"
sed 's/acc = conform_combine(acc, in\[i\]);/acc = conform_combine(acc, in[i]) +;/' "$TMP/ahead/tiles.cu" >"$TMP/ahead/bad.cu"
bad_line=$(grep -n '+;' "$TMP/ahead/bad.cu" | cut -d: -f1)
printf 'BUILD\t1\tc\tuser.tiles\tf32\t33\t0\t1\top=sum\t-\n' |
	XDG_CACHE_HOME="$TMP/ahead/probe" "$top_builddir/conform-worker" --compile-for 90 \
		--kernel "$TMP/ahead/tiles.cu" >"$TMP/ahead/probe.out" 2>/dev/null
if gpu_present || ! grep -q "^DONE	1	completed-correct" "$TMP/ahead/probe.out"; then
	echo "a GPU is present, or no NVRTC compiles here: compiles ahead are not checked"
else
	ahead() {
		XDG_CACHE_HOME="$TMP/ahead/xdg" CONFORM_TEST_DEVICES=1 CONFORM_TEST_SM=90 CONFORM_COMPILE_JOBS=2 \
			"$CONFORM" "$@" --db "$TMP/ahead.db" -v
	}
	expect_exit 0 "tune, compiled ahead" -- ahead tune --kernel "$TMP/ahead/tiles.cu" --n 4096 --dtype f32
	grep ' (ahead of its case)$' "$TMP/err" >"$TMP/ahead/said"
	expect_eq "$(grep -c 'compiled in .* s ([0-9a-f]*) (ahead of its case)$' "$TMP/ahead/said")" 4 \
		"each of the 4 configurations compiled ahead, said by -v"
	expect_eq "$(sed 's/^conform-worker: \(.*\): compiled in.*/\1/' "$TMP/ahead/said" | sort -u | wc -l)" 4 \
		"each compiled once"
	expect_eq "$(ls "$TMP/ahead/xdg/conform" | grep -c '\.cubin$')" 4 "a cubin each in the cache"
	# The same configurations, one BUILD after another by one worker.
	sed 's/^conform-worker: user\.tiles f32 \([^:]*\): .*/\1/' "$TMP/ahead/said" | {
		seq=0
		while read -r params; do
			seq=$((seq + 1))
			printf 'BUILD\t%s\tc\tuser.tiles\tf32\t4096\t0\t1\t%s\t-\n' "$seq" "$params"
		done
	} | XDG_CACHE_HOME="$TMP/ahead/serial" "$top_builddir/conform-worker" --compile-for 90 \
		--kernel "$TMP/ahead/tiles.cu" >/dev/null 2>&1
	expect_eq "$(ls "$TMP/ahead/xdg/conform" | tr '\n' ' ')" "$(ls "$TMP/ahead/serial/conform" | tr '\n' ' ')" \
		"the cache compiled ahead is the cache of one compile after another"
	same=0 files=0
	for f in "$TMP/ahead/serial/conform/"*; do
		files=$((files + 1))
		cmp -s "$f" "$TMP/ahead/xdg/conform/${f##*/}" && same=$((same + 1))
	done
	expect_eq "$same" "$files" "byte for byte"
	expect_exit 0 "tune again" -- ahead tune --kernel "$TMP/ahead/tiles.cu" --n 4096 --dtype f32 --fresh
	expect_eq "$(grep -c 'cache hit ([0-9a-f]*) (ahead of its case)$' "$TMP/err")" 4 "tuned again: 4 cache hits"
	expect_no_grep "$TMP/err" "compiled in" "tuned again: nothing compiled"
	expect_exit 1 "tune a kernel that does not compile" -- \
		ahead tune --kernel "$TMP/ahead/bad.cu" --n 4096 --dtype f32
	expect_eq "$(grep -c "^  user\.bad .*ERROR: not built: .*bad\.cu does not compile .*bad\.cu:$bad_line: error" "$TMP/out")" 4 \
		"each configuration's ERROR says the file's line"
	expect_exit 1 "run a kernel that does not compile" -- ahead run --kernel "$TMP/ahead/bad.cu" --n 33,4097
	expect_eq "$(grep -c "^ERROR   user\.bad\.sum\.f32\.n[0-9]*: not built: .*bad\.cu:$bad_line: error" "$TMP/out")" 2 \
		"a run: each case's ERROR says the file's line"
	CONFORM_COMPILE_JOBS=0 expect_exit 0 "tune, nothing ahead" -- \
		env XDG_CACHE_HOME="$TMP/ahead/none" CONFORM_TEST_DEVICES=1 CONFORM_TEST_SM=90 \
		"$CONFORM" tune --kernel "$TMP/ahead/tiles.cu" --n 4096 --dtype f32 --db "$TMP/ahead.db" -v
	expect_no_grep "$TMP/err" "ahead of its case" "CONFORM_COMPILE_JOBS=0: nothing compiled ahead"
	CONFORM_COMPILE_JOBS=lots one_line_exit2 "CONFORM_COMPILE_JOBS malformed" \
		env CONFORM_TEST_DEVICES=1 CONFORM_TEST_SM=90 "$CONFORM" tune --kernel "$TMP/ahead/tiles.cu" --n 4096 --dtype f32 \
		--db "$TMP/ahead.db"
	expect_grep "$TMP/err" "CONFORM_COMPILE_JOBS='lots'" "CONFORM_COMPILE_JOBS malformed: said"
fi
finish
