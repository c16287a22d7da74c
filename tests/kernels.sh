#!/bin/sh
# kernels.sh - every kernel compiles on its own with nvcc for sm_90 (the
# build compiles them for all configured architectures), and the worker's
# catalog lists every family.  Skipped (77) when configure found no nvcc.
. "$(dirname "$0")/lib.sh"
if [ -z "${NVCC:-}" ]; then
	echo "no nvcc configured: kernel compile test skipped"
	exit 77
fi
for cu in "$top_srcdir"/worker/*.cu "$top_srcdir"/kernels/*/*.cu; do
	checks=$((checks + 1))
	# NVCC_FLAGS, less its -gencode list: sm_90 alone.
	if ! $NVCC $(printf '%s\n' $NVCC_FLAGS | grep -v -e '^-gencode' -e '^arch=') \
		-gencode=arch=compute_90,code=sm_90 -c "$cu" -o "$TMP/k.o" 2>"$TMP/nvcc.err"; then
		fail "nvcc sm_90: $(basename "$cu")"
		sed 's/^/  | /' "$TMP/nvcc.err" | head -n 20 >&2
	fi
done
# softmax.registers keeps a thread's rows in registers: every index into
# them must be a constant once unrolled.  A loop the compiler leaves rolled
# puts the row in local memory (a stack frame), which made the kernel 2-3x
# slower on the H100; ptxas's report of every instantiation must show none.
checks=$((checks + 1))
if $NVCC $(printf '%s\n' $NVCC_FLAGS | grep -v -e '^-gencode' -e '^arch=') \
	-gencode=arch=compute_90,code=sm_90 -Xptxas -v -c "$top_srcdir/kernels/softmax/softmax_general.cu" \
	-o "$TMP/k.o" >"$TMP/ptxas.txt" 2>&1; then
	# ptxas prints the entry's name, then its frame: pair them up.
	awk '/Compiling entry function/ { name = $0 }
	     /bytes stack frame/ && name ~ /softmax_registers_kernel/ { n++; if ($1 != 0) { print name; bad++ } }
	     END { if (n < 774) print "only " n " softmax_registers_kernel instantiations reported"; exit (bad > 0 || n < 774) }' \
		"$TMP/ptxas.txt" >"$TMP/frames.txt" ||
		{ fail "softmax_registers_kernel uses local memory"; sed 's/^/  | /' "$TMP/frames.txt" | head -n 5 >&2; }
else
	fail "nvcc -Xptxas -v softmax_general.cu"
fi
"$top_builddir/conform-worker" --catalog >"$TMP/catalog" || fail "conform-worker --catalog"
expect_grep "$TMP/catalog" "^build	kernels	.*sm_90" "worker built with kernels for sm_90"
for family in harness block warp divergence device rows softmax; do
	expect_grep "$TMP/catalog" "^variant	$family\." "catalog has $family"
done
# Every variant the suites name is in the catalog (conform refuses unknown
# variants with exit 2 when kernels are built).
expect_exit 0 "suites name only built variants" -- "$CONFORM" --all --list
finish
