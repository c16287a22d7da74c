#!/bin/sh
# install.sh - an installed tree works wherever it lies.  conform finds its
# worker and its suites from where its own binary is, so a tree installed
# under another prefix than configure's (make install prefix=DIR), or
# staged with DESTDIR and then moved, runs as it is; neither the build tree
# nor the configure-time prefix is needed.
. "$(dirname "$0")/lib.sh"

# The installed tree must find its suites and worker by itself.
unset CONFORM_SUITES CONFORM_WORKER

# install_into DESCRIPTION make-arguments...: make install from the build
# tree (under make distcheck too: a VPATH build of a read-only source).
install_into() {
	what=$1; shift
	checks=$((checks + 1))
	${MAKE:-make} -C "$top_builddir" install "$@" >"$TMP/install.log" 2>&1 ||
		{ fail "$what: make install $*"; tail -n 20 "$TMP/install.log" | sed 's/^/  | /' >&2; }
}

# runs_from_elsewhere DESCRIPTION BIN: the installed conform, run from
# another directory, lists the cases and runs the harness's.
runs_from_elsewhere() {
	what=$1; bin=$2
	mkdir -p "$TMP/elsewhere"
	cd "$TMP/elsewhere" || exit 1
	expect_exit 0 "$what: --all --list" -- "$bin" --all --list
	expect_grep "$TMP/out" "^harness\.pass" "$what: the harness's cases listed"
	expect_grep "$TMP/out" "^softmax\." "$what: a family's cases listed"
	expect_exit 0 "$what: a harness run" -- "$bin" --filter 'harness.pass*' --db "$TMP/$what.db"
	cd "$OLDPWD" || exit 1
}

# Another prefix than configure's, given to make install.
install_into "prefix" prefix="$TMP/p"
runs_from_elsewhere prefix "$TMP/p/bin/conform"

# A link to the installed binary (~/bin/conform -> DIR/bin/conform) finds
# the tree the binary is in, not the link's.
mkdir -p "$TMP/links"
ln -s "$TMP/p/bin/conform" "$TMP/links/conform"
runs_from_elsewhere link "$TMP/links/conform"

# Staged with DESTDIR under configure's prefix, then the tree moved.
install_into "DESTDIR" DESTDIR="$TMP/stage"
staged=$(find "$TMP/stage" -path '*/bin/conform' -type f)
if [ -z "$staged" ]; then
	fail "DESTDIR: no bin/conform under $TMP/stage"
else
	mv "$(dirname "$(dirname "$staged")")" "$TMP/moved"
	runs_from_elsewhere moved "$TMP/moved/bin/conform"
fi

finish
