# lib.sh - shared by the shell tests: paths, a scratch directory, assertions.
# Sourced; expects top_builddir and top_srcdir from the test environment.
set -u
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
CONFORM="$top_builddir/conform"
export CONFORM_SUITES="$top_srcdir/kernels"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/conform-test.XXXXXX")
export CONFORM_DB="$TMP/default.db"
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() { failures=$((failures + 1)); echo "FAIL: $*" >&2; }

# expect_exit CODE DESCRIPTION -- command...
expect_exit() {
	want=$1; what=$2; shift 3
	checks=$((checks + 1))
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, want $want"
		sed 's/^/  | /' "$TMP/out" "$TMP/err" | tail -n 20 >&2
	fi
}

# one_line_exit2 DESCRIPTION command...: a usage or input error: exit 2
# and one line on stderr, "conform: ...".
one_line_exit2() {
	what=$1; shift
	expect_exit 2 "$what" -- "$@"
	expect_eq "$(wc -l <"$TMP/err")" 1 "$what: one line"
	expect_grep "$TMP/err" "^conform: " "$what: message"
}

# expect_grep FILE REGEX DESCRIPTION
expect_grep() {
	checks=$((checks + 1))
	grep -Eq -- "$2" "$1" || { fail "$3: no /$2/ in $(basename "$1")"; sed 's/^/  | /' "$1" | tail -n 20 >&2; }
}

expect_no_grep() {
	checks=$((checks + 1))
	if grep -Eq -- "$2" "$1"; then fail "$3: unexpected /$2/ in $(basename "$1")"; fi
}

# expect_eq GOT WANT DESCRIPTION
expect_eq() {
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"
}

# expect_aligned FILE HEADER DESCRIPTION: FILE's table lines up.  Each line
# matching the regex HEADER holds titles two spaces or more apart; every row
# after it, up to a blank line, has a cell under each title that starts
# where the title starts (left-aligned) or ends where it ends (right-
# aligned), or nothing from there on (empty last cells).  µ and × are one
# column each, as on a terminal.
expect_aligned() {
	checks=$((checks + 1))
	sed 's/µ/u/g; s/×/x/g' "$1" | awk -v header="$2" '
		function blank(c) { return c == "" || c == " " }
		$0 ~ header {
			n = 0; pos = 1; rest = $0
			while (match(rest, /[^ ]+( [^ ]+)*/)) {
				n++; start[n] = pos + RSTART - 1; stop[n] = start[n] + RLENGTH
				pos = stop[n]; rest = substr($0, pos)
			}
			seen = 1; rows = 1; next
		}
		/^$/ { rows = 0; next }
		rows {
			for (i = 1; i <= n; i++) {
				s = start[i]; e = stop[i]
				if (length($0) < s)
					continue
				left = blank(substr($0, s - 1, 1)) && !blank(substr($0, s, 1))
				right = !blank(substr($0, e - 1, 1)) && blank(substr($0, e, 1))
				if (!left && !right) {
					printf "line %d: not under column %d\n", NR, i; bad = 1
				}
			}
		}
		END { exit bad || !seen }' >"$TMP/aligned" ||
		{ fail "$3: columns out of line"; sed 's/^/  | /' "$TMP/aligned" "$1" | head -n 30 >&2; }
}

# gone PIDFILE WHAT: the processes whose ids a stand-in wrote are dead.
gone() {
	checks=$((checks + 1))
	for p in $(cat "$1"); do
		st=$(ps -o stat= -p "$p" 2>/dev/null)
		case "$st" in
		"" | Z*) ;;
		*) fail "$2: process $p left running ($st)" ;;
		esac
	done
}

sql() { "${SQLITE3:-sqlite3}" "$@"; }

# sanitizer_stand_in FILE: writes FILE, a compute-sanitizer without a GPU
# (set CONFORM_SANITIZER to it): it appends its arguments to $FAKE_ARGS,
# copies $FAKE_LOG, a recorded log, to where --log-file says, and runs
# the rest of its command line (the worker).
sanitizer_stand_in() {
	cat >"$1" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_ARGS"
while [ $# -gt 0 ]; do
	case "$1" in
	--log-file) cp "$FAKE_LOG" "$2"; shift 2 ;;
	--tool|--print-limit|--show-backtrace) shift 2 ;;
	*) break ;;
	esac
done
"$@"
EOF
	chmod +x "$1"
}

# gpu_present: whether this machine has a CUDA GPU, asked of the driver
# itself (libcuda through python3's ctypes, else nvidia-smi), not of the
# conform output a test then checks.
gpu_present() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import ctypes, sys
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError:
    sys.exit(1)
n = ctypes.c_int(0)
sys.exit(0 if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0 else 1)' 2>/dev/null
	else
		nvidia-smi -L >/dev/null 2>&1
	fi
}

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ] && [ "$checks" -gt 0 ]
	exit $?
}
