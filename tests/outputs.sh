#!/bin/sh
# outputs.sh - the machine-readable outputs read back by real parsers:
# Python's json for every JSON line (run, tune, best, history), its csv
# for every CSV row, xml.etree for the JUnit report.  The run's JSON
# summary and each JUnit <testsuite> name the run as the database stored
# it; seeds are JSON strings of digits, exact where a double would round
# them.  Where a command offers both --json and --csv, the two must hold
# the same columns and the same values; history's robust columns are named and valued as those of
# the tune that measured its run.  A text field with quotes, a backslash,
# a comma, a tab and a line break is planted in the database to prove the
# escaping.  Skipped (77) without python3.
. "$(dirname "$0")/lib.sh"
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import csv, json, xml.etree.ElementTree' 2>/dev/null; then
	echo "no python3: output parsing test skipped"
	exit 77
fi

# check.py KIND FILE...: exits 0 when FILE reads as KIND, else says why.
cat >"$TMP/check.py" <<'EOF'
import csv, json, re, sys
import xml.etree.ElementTree as ET

def die(msg):
    print(msg)
    sys.exit(1)

def json_lines(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                value = json.loads(line)
            except ValueError as e:
                die("%s:%d: not JSON (%s): %s" % (path, number, e, line.rstrip()[:200]))
            if not isinstance(value, dict):
                die("%s:%d: not an object" % (path, number))
            rows.append(value)
    if not rows:
        die("%s: no lines" % path)
    return rows

def csv_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, strict=True))
    if len(rows) < 2:
        die("%s: no header and rows" % path)
    header = rows[0]
    for number, row in enumerate(rows[1:], 2):
        if len(row) != len(header):
            die("%s:%d: %d fields, header has %d" % (path, number, len(row), len(header)))
    return header, rows[1:]

def same(j, c):
    """A JSON value and the CSV field that should say the same.  A seed is
    a JSON string of digits and a plain CSV number: the same text."""
    if j is None:
        return c == ""
    if isinstance(j, bool):
        return c == ("1" if j else "0")
    if isinstance(j, (int, float)):
        try:
            return float(c) == float(j)
        except ValueError:
            return False
    return c == j

kind = sys.argv[1]
if kind == "run":
    # Every result line has the same fields; the summary comes last, and
    # names the run as the database stored it (RUN: "id|seed|device|
    # version|revision"), its seed a string that a double would change.
    rows = json_lines(sys.argv[2])
    fields = ["case", "variant", "dtype", "n", "cols", "params", "expect", "status",
              "observed", "message", "sanitizer", "err_norm", "duration_ms", "seed", "device"]
    for r in rows[:-1]:
        if list(r) != fields:
            die("result fields %s, want %s" % (list(r), fields))
        # the GPU it ran on: "host" on a host-only run, as the summary says
        if r["device"] != "host":
            die("%s: device %r on a run without a GPU" % (r["case"], r["device"]))
    s = rows[-1].get("summary")
    if not isinstance(s, dict) or s.get("passed") != len(rows) - 1 or \
       sum(s["statuses"].values()) != len(rows) - 1:
        die("summary %s does not count %d results" % (rows[-1], len(rows) - 1))
    run_id, seed, device, version, revision = sys.argv[3].split("|")
    want = {"run_id": int(run_id), "seed": seed, "device": device,
            "build": {"conform_version": version, "git_revision": revision}}
    for key, value in want.items():
        if s.get(key) != value:
            die("summary %s is %r, want %r" % (key, s.get(key), value))
    if int(float(int(s["seed"]))) == int(s["seed"]):
        die("seed %s: a double holds it, nothing proved" % s["seed"])
elif kind == "same":
    # JSON lines (less a final summary) and CSV with the same columns and values.
    rows = [r for r in json_lines(sys.argv[2]) if "summary" not in r]
    header, crows = csv_rows(sys.argv[3])
    if len(rows) != len(crows):
        die("%d JSON rows, %d CSV rows" % (len(rows), len(crows)))
    for number, (j, c) in enumerate(zip(rows, crows), 1):
        if list(j) != header:
            die("row %d: JSON fields %s, CSV header %s" % (number, list(j), header))
        for key, field in zip(header, c):
            if not same(j[key], field):
                die("row %d, %s: JSON %r, CSV %r" % (number, key, j[key], field))
elif kind == "seeds":
    # Every result's seed is a JSON string of exactly the digits the
    # database stores (results.seed, TEXT), also past 2^53, where a JSON
    # number read as a double (jq, JavaScript) would come back changed.
    rows = [r for r in json_lines(sys.argv[2]) if "summary" not in r]
    with open(sys.argv[3], encoding="utf-8") as f:
        stored = dict(line.rstrip("\n").split("|") for line in f)
    wide = 0
    for r in rows:
        seed = r["seed"]
        if not isinstance(seed, str) or not re.fullmatch("[0-9]+", seed):
            die("%s: seed %r is not a string of digits" % (r["case"], seed))
        if seed != stored.get(r["case"]):
            die("%s: JSON seed %s, database %s" % (r["case"], seed, stored.get(r["case"])))
        if json.loads(json.dumps(r))["seed"] != seed:
            die("%s: seed %s does not round-trip" % (r["case"], seed))
        wide += int(seed) > 2**53 and int(float(int(seed))) != int(seed)
    if not wide:
        die("no seed past 2^53 that a double would change: nothing proved")
elif kind == "field":
    # Every JSON line's KEY is VALUE (the planted text came back whole).
    key, want = sys.argv[3], sys.argv[4].encode().decode("unicode_escape")
    for r in json_lines(sys.argv[2]):
        if r.get(key) != want:
            die("%s is %r, want %r" % (key, r.get(key), want))
elif kind == "junit":
    root = ET.parse(sys.argv[2]).getroot()
    cases = root.findall("./testsuite/testcase")
    if root.tag != "testsuites" or int(root.get("tests")) != len(cases) or not cases:
        die("testsuites counts %s tests, holds %d" % (root.get("tests"), len(cases)))
    for suite in root.findall("testsuite"):
        if int(suite.get("tests")) != len(suite.findall("testcase")):
            die("testsuite %s miscounts its cases" % suite.get("name"))
        for attr in ("failures", "errors", "skipped"):
            int(suite.get(attr))
        float(suite.get("time"))
    # Each <testsuite> names the run as the database stored it (RUN:
    # "id|seed|device|version|revision|started_at|host").
    run_id, seed, device, version, revision, started, host = sys.argv[3].split("|")
    want = {"seed": seed, "device": device, "revision": revision,
            "conform_version": version, "run_id": run_id}
    for suite in root.findall("testsuite"):
        if (suite.get("timestamp"), suite.get("hostname")) != (started, host):
            die("testsuite %s: timestamp %s, hostname %s; the run started %s on %s" %
                (suite.get("name"), suite.get("timestamp"), suite.get("hostname"), started, host))
        props = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
        if props != want:
            die("testsuite %s: properties %s, want %s" % (suite.get("name"), props, want))
elif kind == "history":
    # history's columns are exactly COLUMNS (comma separated); the ones it
    # shares with tune are named as tune names them, and its last row says
    # what the tune that made it printed for the same configuration.
    rows = json_lines(sys.argv[2])
    header, trows = csv_rows(sys.argv[3])
    want = sys.argv[4].split(",")
    if list(rows[0]) != want:
        die("history fields %s, want %s" % (list(rows[0]), want))
    shared = ["median_us", "gbps", "noise", "spread", "ci_low_us", "ci_high_us",
              "noise_met", "throttled", "timer"]
    missing = [k for k in shared if k not in header]
    if missing:
        die("tune has no column %s" % missing)
    last = rows[-1]
    match = [t for t in trows
             if t[header.index("variant")] == last["variant"] and
             t[header.index("config")] == last["config"]]
    if len(match) != 1:
        die("%d tune rows for %s %s" % (len(match), last["variant"], last["config"]))
    for key in shared:
        if not same(last[key], match[0][header.index(key)]):
            die("history %s %r, tune %r" % (key, last[key], match[0][header.index(key)]))
else:
    die("unknown check " + kind)
EOF

# expect_parse DESCRIPTION KIND FILE...
expect_parse() {
	what=$1; shift
	checks=$((checks + 1))
	"$PYTHON" "$TMP/check.py" "$@" >"$TMP/why" 2>&1 || { fail "$what: $(head -c 600 "$TMP/why")"; }
}

# conform run: JSON lines and JUnit.
DB="$TMP/run.db"
SEED=12345678901234567890 # past 2^53: as a double, 12345678901234567168
expect_exit 0 "run --json --junit" -- "$CONFORM" --filter 'harness.*' --seed $SEED --hang-timeout 1 --json --junit "$TMP/junit.xml" --db "$DB"
cp "$TMP/out" "$TMP/run.jsonl"
run=$(sql "$DB" "select runs.id, runs.seed, coalesce(devices.name, 'host'), conform_version,
	git_revision from runs left join devices on devices.id = runs.device_id")
expect_eq "$(echo "$run" | cut -d'|' -f2)" $SEED "the run's seed stored"
expect_parse "run --json" run "$TMP/run.jsonl" "$run"
sql "$DB" "select case_name || '|' || seed from results" >"$TMP/seeds"
expect_parse "run --json: seeds are exact strings" seeds "$TMP/run.jsonl" "$TMP/seeds"
expect_parse "run --junit" junit "$TMP/junit.xml" "$run|$(sql "$DB" "select started_at, host from runs")"

# conform tune: the first run measures, the next two answer from the
# database, so their JSON and CSV must agree value for value (skipped
# configurations included: null in JSON, empty in CSV).
FAST="--min-samples 5 --max-noise 0.02 --max-time 0.01 --timeout 5"
T="$TMP/tune.db"
expect_exit 0 "tune --csv" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --csv --db "$T"
expect_exit 0 "tune --json" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --json --db "$T"
cp "$TMP/out" "$TMP/tune.jsonl"
expect_exit 0 "tune --csv again" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --csv --db "$T"
cp "$TMP/out" "$TMP/tune.csv"
expect_grep "$TMP/tune.jsonl" '"median_us":null' "a skipped configuration has no median"
expect_parse "tune --json and --csv" same "$TMP/tune.jsonl" "$TMP/tune.csv"

# best and history, with text that needs escaping in both formats (quote,
# backslash, comma); the tab and the line break come back as '?', as every
# text read from a database does (made printable where it is read).
expect_exit 0 "tune again" -- "$CONFORM" tune harness.spin --n 2^16 --dtype f32 $FAST --fresh --csv --db "$T"
cp "$TMP/out" "$TMP/fresh.csv"
planted='say "hi" \\ a,b?c?d'
sql "$T" "update runs set git_revision = 'say \"hi\" \\ a,b' || char(9) || 'c' || char(10) || 'd'"
for cmd in best history; do
	expect_exit 0 "$cmd --json" -- "$CONFORM" $cmd harness.spin --n 2^16 --json --db "$T"
	cp "$TMP/out" "$TMP/$cmd.jsonl"
	expect_exit 0 "$cmd --csv" -- "$CONFORM" $cmd harness.spin --n 2^16 --csv --db "$T"
	cp "$TMP/out" "$TMP/$cmd.csv"
	expect_parse "$cmd --json and --csv" same "$TMP/$cmd.jsonl" "$TMP/$cmd.csv"
	expect_parse "$cmd: escaped text comes back" field "$TMP/$cmd.jsonl" git_revision "$planted"
done
expect_eq "$(wc -l <"$TMP/history.jsonl")" 2 "history: a line per measuring run"
# history's columns, the robust ones agreeing with the tune that measured
# its last run.
columns=device,dtype,op,n,cols,date,git_revision,run_id,variant,source,config,median_us,gbps
columns=$columns,noise,spread,ci_low_us,ci_high_us,noise_met,throttled,timer
columns=$columns,change_pct,config_changed
expect_parse "history columns" history "$TMP/history.jsonl" "$TMP/fresh.csv" "$columns"
finish
