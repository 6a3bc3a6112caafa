#!/usr/bin/env bash
# realsock's model-only mode on every committed recording (no root): the
# model's side recomputed from the same scenario must equal the recorded
# one, and the table must show every recorded writer. A recording whose
# model side is changed by hand must fail. Bad input: one line, exit 2.
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
  grep -q "the model's figures equal the recording's" "$out"; check "$(basename "$rec") reproduces" 0 $rc $?
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernel_runs"]))' "$rec")
  rows=$(grep -cE '^v[12][-a-z]* +[0-9]+ +[0-9]+ ' "$out")
  [[ "$rows" == "$n" ]]; check "$(basename "$rec") has $n rows" 0 $rc $?
  # One model packet more in the first writer: the comparison must notice
  # (on the first recording only: each check reruns the model).
  [[ "$rec" == "$1" ]] || continue
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["model_runs"][0]["packets"]+=1; json.dump(r, open(sys.argv[2],"w"))' "$rec" "$tmp"
  "$bin" --recorded="$tmp" >"$out" 2>"$err"; rc=$?
  grep -q "moved from those recorded" "$err"; check "$(basename "$rec") edited fails" 1 $rc $?
done
echo '{"kernel": 1}' >"$tmp"
"$bin" --recorded="$tmp" >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "malformed recording" 2 $rc $?
"$bin" --recorded=/nonexistent.json >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "missing recording" 2 $rc $?
"$bin" --messages=0 >"$out" 2>"$err"; rc=$?
[[ $(wc -l <"$err") -eq 1 ]]; check "bad --messages" 2 $rc $?
# Without root the live run cannot be set up: exit 77 with the reason.
if command -v setpriv >/dev/null && [[ $(id -u) == 0 ]]; then
  setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --messages=1 >"$out" 2>"$err"; rc=$?
  grep -q "needs root" "$err"; check "not root" 77 $rc $?
fi
rm -f "$out" "$err" "$tmp"
exit $fail
