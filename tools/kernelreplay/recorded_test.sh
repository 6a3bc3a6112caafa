#!/usr/bin/env bash
# kernelreplay's model-only mode on every committed recording (no root, no
# kernel): the model's side recomputed from each recorded case must equal the
# recorded one (golden: the recordings are the model's output when they were
# made, beside the kernel's), and the table must list every recorded cell. A
# recording whose model side is changed by hand must fail. Bad input: one
# line, exit 2.
set -uo pipefail
bin="$1"; shift
fail=0
check() {  # name, want_rc, got_rc, condition
  if [[ "$2" != "$3" || "$4" != 0 ]]; then
    echo "FAIL: $1 (exit $3, want $2)"; fail=1
  else
    echo "ok: $1"
  fi
}
out=$(mktemp); err=$(mktemp); tmp=$(mktemp)
for rec in "$@"; do
  "$bin" --recorded="$rec" >"$out" 2>"$err"; rc=$?
  check "$(basename "$rec") reproduces" 0 $rc 0
  [[ $rc == 0 ]] || head -5 "$err"
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' "$rec")
  rows=$(grep -c '^| [a-z_/ -]* = ' "$out")
  [[ "$rows" == "$n" ]]; check "$(basename "$rec") has $n cell rows" 0 $rc $?
  # One model packet fewer in the first run of the first case: the check
  # must notice (on the first recording only).
  [[ "$rec" == "$1" ]] || continue
  python3 - "$rec" "$tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
run = r["cells"][0]["cases"][0]["runs"][0]
run["model"] = run["model"] + " 1"
json.dump(r, open(sys.argv[2], "w"))
PY
  "$bin" --recorded="$tmp" --check_cases=1 >"$out" 2>"$err"; rc=$?
  grep -q "moved from the recording" "$err"; check "$(basename "$rec") edited fails" 1 $rc $?
done
echo '{"series": 1}' >"$tmp"
"$bin" --recorded="$tmp" >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "malformed recording" 2 $rc $?
"$bin" --recorded=/nonexistent.json >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "missing recording" 2 $rc $?
"$bin" --kernel_side --series=5.4 --json_out="$tmp" >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "unknown series" 2 $rc $?
"$bin" >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "no mode" 2 $rc $?
rm -f "$out" "$err" "$tmp"
exit $fail
