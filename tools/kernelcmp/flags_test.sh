#!/usr/bin/env bash
# kernelcmp's command line around --reference_json, end to end on committed
# recordings (no root needed). Expectations by hand: a recording judged
# against itself meets the goal in every cell (its mean lies in its own
# range, the same sizes, tvd 0); bad input is one line on stderr and exit 2.
set -uo pipefail
bin="$1"
dir="$(dirname "$2")"
fail=0
check() {  # name, want_rc, got_rc, condition
  if [[ "$2" != "$3" || "$4" != 0 ]]; then
    echo "FAIL: $1 (exit $3, want $2)"; fail=1
  else
    echo "ok: $1"
  fi
}
one_line() { [[ $(wc -l < "$1") -eq 1 ]]; echo $?; }

out=$(mktemp); err=$(mktemp)
"$bin" --scenario="$dir/4k.json" --kernel_json="$dir/results-4k.json" \
  --reference_json="$dir/results-4k.json" >"$out" 2>"$err"; rc=$?
grep -q "in the model's place: met in 28 of 28 cells" "$out"; check "recording against itself" 0 $rc $?
# The headline verdict comes first, over every cell that has a reference.
head -n 1 < <(grep -E '^(verdict|goal)' "$out") | grep -q "^verdict, the model within the kernel's own spread .*: [0-9]* of 28 cells"
check "repeatability verdict heads the summary" 0 $rc $?

"$bin" --scenario="$dir/4k.json" --kernel_json="$dir/results-4k.json" >"$out" 2>"$err"; rc=$?
grep -q "^verdict: needs a second recording" "$out"; check "no reference, no verdict" 0 $rc $?

"$bin" --scenario="$dir/4k.json" --kernel_json="$dir/results-4k.json" \
  --reference_json=/nonexistent/ref.json >"$out" 2>"$err"; rc=$?
check "missing reference" 2 $rc "$(one_line "$err")"
grep -q "cannot read /nonexistent/ref.json" "$err"; check "missing reference names the file" 2 $rc $?

"$bin" --scenario="$dir/4k.json" --kernel_json="$dir/results-4k.json" \
  --reference_json="$dir/results-default-128k.json" >"$out" 2>"$err"; rc=$?
check "reference of another workload" 2 $rc "$(one_line "$err")"

"$bin" --scenario="$dir/4k.json" --model_only --reference_json="$dir/results-4k.json" >"$out" 2>"$err"; rc=$?
check "reference without a kernel side" 2 $rc "$(one_line "$err")"

"$bin" --scenario="$dir/4k.json" --kernel_json="$dir/results-4k.json" --variants=v2 --io=blocking \
  --placements=rx-on-sender-cpu --reference_json="$dir/results-4k.json" --format=json >"$out" 2>"$err"; rc=$?
grep -q '"reference_goal"' "$out"; check "json has the reference's verdict" 0 $rc $?
grep -q '"model_repeatability"' "$out"; check "json has the repeatability verdict" 0 $rc $?
rm -f "$out" "$err"
exit $fail
