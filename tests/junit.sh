#!/bin/sh
# junit.sh - the JUnit reports conform writes (run --junit, compare
# --junit) are valid against junit-10.xsd, the Jenkins xUnit schema that
# CI readers of JUnit follow (tests/data/junit-10.xsd), checked by xmllint:
# a plain run, a run with every element the report can hold (<failure>
# for FAIL and XPASS, <error> for a crash, <skipped> for a GPU case without
# a GPU and for a known failure, <system-out> for XFAIL and a fixed one)
# and text that needs escaping, and a comparison with a regression.  A report with a planted violation must fail, so a
# validator that accepts anything cannot pass this test.  Host-only
# harness cases: no GPU needed.  Skipped (77) without xmllint.
. "$(dirname "$0")/lib.sh"
XMLLINT=${XMLLINT:-xmllint}
if ! command -v "$XMLLINT" >/dev/null 2>&1; then
	echo "no xmllint (libxml2-utils): JUnit schema test skipped"
	exit 77
fi
XSD="$top_srcdir/tests/data/junit-10.xsd"

# valid FILE: xmllint's verdict on FILE, its messages in $TMP/lint.
valid() { "$XMLLINT" --noout --schema "$XSD" "$1" >"$TMP/lint" 2>&1; }

# expect_valid FILE DESCRIPTION
expect_valid() {
	checks=$((checks + 1))
	valid "$1" || { fail "$2: not valid against junit-10.xsd"; sed 's/^/  | /' "$TMP/lint" | tail -n 20 >&2; }
}

expect_exit 0 "a host run" -- "$CONFORM" --filter 'harness.*' --seed 7 --hang-timeout 1 \
	--db "$TMP/plain.db" --junit "$TMP/plain.xml"
expect_valid "$TMP/plain.xml" "a host run's report"

# The schema catches what it forbids: a skipped count on <testsuites>.
sed 's/<testsuites /<testsuites skipped="0" /' "$TMP/plain.xml" >"$TMP/planted.xml"
checks=$((checks + 1))
if valid "$TMP/planted.xml"; then
	fail "a planted violation (<testsuites skipped=...>) passed validation"
fi

# Every element, and reasons with XML's special characters.
cat >"$TMP/j.suite" <<'SUITE'
case j.pass   variant=harness.pass  dtype=i32 n=1000
case j.fail   variant=harness.wrong dtype=i32 n=1000
case j.xpass  variant=harness.pass  dtype=i32 n=1000 expect=fail
case j.crash  variant=harness.crash n=1
case j.xfail  variant=harness.wrong dtype=i32 n=100 expect=fail
case j.known  variant=harness.wrong dtype=i32 n=10
case j.fixed  variant=harness.pass  dtype=i32 n=10
case k.gpu    variant=block.tree dtype=f32 n=1000 block=256 op=sum
SUITE
printf '%s\n' "j.known  off by one <&\"'> here" "j.fixed  fixed since \"2.0\" & <later>" >"$TMP/j.bl"
expect_exit 1 "a run of every element" -- "$CONFORM" --suite "$TMP/j.suite" --all \
	--seed 18446744073709551615 --db "$TMP/every.db" --baseline "$TMP/j.bl" --junit "$TMP/every.xml"
expect_valid "$TMP/every.xml" "a report of every element"
for element in '<failure type="FAIL"' '<failure type="XPASS"' '<error type="CRASH"' \
	'<skipped type="SKIP"' '<skipped type="FAIL" message="known failure' '<system-out>XFAIL' \
	'<system-out>fixed' 'off by one &lt;&amp;&quot;&apos;&gt; here' \
	'<property name="seed" value="18446744073709551615"/>'; do
	expect_grep "$TMP/every.xml" "$element" "the report holds $element"
done

# conform compare: the second run's j.pass gives a wrong answer.
sed 's/^case j.pass   variant=harness.pass /case j.pass   variant=harness.wrong/' "$TMP/j.suite" >"$TMP/k.suite"
expect_exit 1 "a run with a regression" -- "$CONFORM" --suite "$TMP/k.suite" --all --seed 1 \
	--db "$TMP/every.db" --baseline "$TMP/j.bl"
expect_exit 1 "compare: a regression" -- "$CONFORM" compare --db "$TMP/every.db" --junit "$TMP/compare.xml"
expect_valid "$TMP/compare.xml" "compare's report"
expect_grep "$TMP/compare.xml" '<failure message="PASS -&gt; FAIL"' "compare's report holds the regression"
finish
