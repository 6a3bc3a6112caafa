#!/bin/bash
# fixtures_test must report every bad fixture file, one line each, and still
# replay the good ones: run it on two broken files around a good one.
# Arguments: the fixtures_test binary, a good fixture.
set -uo pipefail
bin="$1"
good="$2"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
printf 'property: integrity\nexpect: fails\ncase:\nprofile linux-4.19\nwriter nope\n' >"$dir/bad-writer.fixture"
printf 'property: no_such_property\nexpect: holds\ncase:\n%s\n' "$(sed -n '/^case:/,$p' "$good" | tail -n +2)" \
  >"$dir/bad-property.fixture"
out=$("$bin" "$dir/bad-writer.fixture" "$good" "$dir/bad-property.fixture" 2>&1)
rc=$?
fail=0
[[ $rc -ne 0 ]] || { echo "FAIL: fixtures_test passed with two bad files"; fail=1; }
for f in bad-writer bad-property; do
  n=$(grep -c "$dir/$f.fixture: " <<<"$out")
  [[ $n -ge 1 ]] || { echo "FAIL: no line names $f.fixture"; fail=1; }
done
grep -q "unknown writer 'nope'" <<<"$out" || { echo "FAIL: the bad writer is not named"; fail=1; }
grep -q "unknown property 'no_such_property'" <<<"$out" || { echo "FAIL: the bad property is not named"; fail=1; }
if [[ $fail -ne 0 ]]; then
  echo "$out" | tail -20
  exit 1
fi
echo "PASS: both bad files reported, the good one replayed"
