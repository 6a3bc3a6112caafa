#!/usr/bin/env bash
# The bad-input battery: every row of testdata/badinput/cases.tsv is a
# command line (sendsim, sendsim packetdrill, explore) given bad input, with
# the exit code and the first line it must give. Each runs in a fresh
# scratch folder $T holding keep.svg and s.json; afterwards the folder must
# hold exactly those two files, unchanged (no partial, temporary or
# truncated output), within 60 s and (outside ASan) 4 GiB of address space.
# Every case also prints its first line at most 400 characters long and,
# when it fails, at most one line on stderr.
# Usage: bad_input_test.sh SENDSIM EXPLORE CASES_TSV
set -u
SENDSIM=$(realpath "$1")
EXPLORE=$(realpath "$2")
CASES=$3
D=$(realpath "$(dirname "$CASES")")
export SENDSIM EXPLORE D
scratch=${TEST_TMPDIR:-$(mktemp -d)}
fail=0
count=0
while IFS=$'\t' read -r name want_rc want_first cmd; do
  [[ -z $name || $name == \#* ]] && continue
  count=$((count + 1))
  T=$(mktemp -d "$scratch/case.XXXXXX")
  out=$(mktemp "$scratch/out.XXXXXX")
  err=$(mktemp "$scratch/err.XXXXXX")
  cp "$D/s.json" "$T/s.json"
  echo KEEP >"$T/keep.svg"
  before=$(cd "$T" && ls -A && md5sum keep.svg s.json)
  (
    cd "$T" || exit 99
    [[ -z ${ASAN_OPTIONS:-} ]] && ulimit -v 4194304
    T=$T timeout 60 bash -c "$cmd" >"$out" 2>"$err"
  )
  rc=$?
  if [[ -s $err ]]; then first=$(head -n 1 "$err"); else first=$(head -n 1 "$out"); fi
  after=$(cd "$T" && ls -A && md5sum keep.svg s.json 2>/dev/null)
  problems=()
  [[ $rc == "$want_rc" ]] || problems+=("exit $rc, want $want_rc")
  [[ ${first:0:${#want_first}} == "$want_first" ]] || problems+=("first line differs; want: $want_first")
  ((${#first} <= 400)) || problems+=("first line is ${#first} characters long")
  if [[ $rc != 0 && $(wc -l <"$err") -gt 1 ]]; then problems+=("$(wc -l <"$err") lines on stderr"); fi
  [[ $before == "$after" ]] || problems+=("the scratch folder changed: $(cd "$T" && ls -A | tr '\n' ' ')")
  printf '%-40s exit %-3s %s\n' "$name" "$rc" "${first:0:200}"
  if ((${#problems[@]} > 0)); then
    fail=1
    for p in "${problems[@]}"; do printf '    FAILED: %s\n' "$p"; done
  fi
  rm -rf "$T" "$out" "$err"
done <"$CASES"
echo "$count bad inputs"
if ((count < 100)); then
  echo "FAILED: fewer than 100 cases"
  fail=1
fi
exit $fail
