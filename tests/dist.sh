#!/bin/sh
# dist.sh - the release tarball holds every file the git checkout tracks,
# but for the few listed below.  The README, the docs and the scripts name
# one another; a file left out of EXTRA_DIST is missed only by whoever
# builds from the tarball, so it is checked where it is added: in make
# check from a git checkout (the tree make distdir would pack), and by make
# distcheck's distcheck-hook on the unpacked tarball itself (DISTDIR).
# Outside a git checkout (a build from the tarball) there is nothing to
# compare with: skipped.
. "$(dirname "$0")/lib.sh"

# Tracked but deliberately not shipped, one pattern (a shell glob on the
# path from the top of the tree) a line, each with its reason.
not_shipped() {
	case "$1" in
	# git's own: a tarball is not a checkout.
	.gitignore | */.gitignore | .gitattributes) return 0 ;;
	esac
	return 1
}

src=$(cd "$top_srcdir" && pwd -P)
git_top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) &&
	[ "$(cd "$git_top" && pwd -P)" = "$src" ] || {
	echo "not a git checkout's top ($src): nothing to compare the tarball with"
	exit 77
}

if [ -n "${DISTDIR:-}" ]; then
	dist=$DISTDIR
else
	dist="$TMP/dist"
	checks=$((checks + 1))
	${MAKE:-make} -C "$top_builddir" distdir distdir="$dist" >"$TMP/distdir.log" 2>&1 ||
		{ fail "make distdir"; tail -n 20 "$TMP/distdir.log" | sed 's/^/  | /' >&2; }
fi

# Files as the index has them, less those deleted and not yet committed.
git -C "$src" ls-files >"$TMP/tracked"
: >"$TMP/missing"
while IFS= read -r f; do
	[ -e "$src/$f" ] || [ -L "$src/$f" ] || continue
	not_shipped "$f" && continue
	[ -e "$dist/$f" ] || [ -L "$dist/$f" ] || echo "$f" >>"$TMP/missing"
done <"$TMP/tracked"

checks=$((checks + 1))
if [ -s "$TMP/missing" ]; then
	fail "tracked but not in the tarball (add them to EXTRA_DIST in Makefile.am, or to not_shipped in tests/dist.sh with a reason):"
	sed 's/^/  | /' "$TMP/missing" >&2
fi
checks=$((checks + 1))
[ "$(wc -l <"$TMP/tracked")" -gt 100 ] || fail "git ls-files lists only $(wc -l <"$TMP/tracked") files"

finish
