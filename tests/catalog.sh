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

fake long "build${T}no-kernels${T}" "variant${T}long.one${T}0${T}f32${T}summary${T}$long${T}-${T}-${T}-${T}0${T}-${T}-"
CONFORM_WORKER="$TMP/long" expect_exit 0 "a long contract" -- "$CONFORM" --variants
expect_grep "$TMP/out" "^ +$long\$" "the 3000-byte contract whole"

fake short "build${T}no-kernels${T}" "variant${T}x.y${T}0${T}f32${T}s${T}c${T}-"
CONFORM_WORKER="$TMP/short" expect_exit 2 "a short variant line" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog: line 2: 'variant' line with 6 fields after the tag, not 11" "the bad line named"

fake nobuild "variant${T}x.y${T}0${T}f32${T}s${T}c${T}-${T}-${T}-${T}0${T}-${T}-"
CONFORM_WORKER="$TMP/nobuild" expect_exit 2 "no build line" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog: no 'build' line" "missing build line"

fake failing "build${T}no-kernels${T}"
echo 'exit 3' >>"$TMP/failing"
CONFORM_WORKER="$TMP/failing" expect_exit 2 "failing worker" -- "$CONFORM" --variants
expect_grep "$TMP/err" "--catalog failed \(exited with status 3\)" "how the worker ended"

finish
