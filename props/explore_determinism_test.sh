#!/bin/bash
# Cross-process determinism: the explorer's full traces (every case's
# packets, outcome and case text, one line per case) must be byte-identical
# between two processes, and the union of a 2-shard run must be the
# unsharded run. Argument: the explore binary.
set -euo pipefail
bin="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
# Not under the test's own sharding (this test is not sharded).
unset TEST_TOTAL_SHARDS TEST_SHARD_INDEX TEST_SHARD_STATUS_FILE
flags=(--property=all --cases=150 --seed=11)
"$bin" "${flags[@]}" --trace_out="$dir/a.txt"
"$bin" "${flags[@]}" --trace_out="$dir/b.txt"
TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=0 "$bin" "${flags[@]}" --trace_out="$dir/s0.txt"
TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=1 "$bin" "${flags[@]}" --trace_out="$dir/s1.txt"
lines=$(wc -l <"$dir/a.txt")
if [[ "$lines" -lt 1000 ]]; then
  echo "FAIL: only $lines traced cases"
  exit 1
fi
if ! cmp "$dir/a.txt" "$dir/b.txt"; then
  echo "FAIL: two processes gave different traces"
  diff "$dir/a.txt" "$dir/b.txt" | head -5 | cut -c1-300
  exit 1
fi
# Lines start with "property index", so sorting puts each case in one place.
LC_ALL=C sort "$dir/a.txt" >"$dir/a.sorted"
LC_ALL=C sort "$dir/s0.txt" "$dir/s1.txt" >"$dir/s.sorted"
if ! cmp "$dir/a.sorted" "$dir/s.sorted"; then
  echo "FAIL: the union of two shards differs from the unsharded run"
  diff "$dir/a.sorted" "$dir/s.sorted" | head -5 | cut -c1-300
  exit 1
fi
# Verdicts (with the decisive flag and every comparison) of the claims and
# the paired comparisons, case by case, in two processes.
vflags=(--property=holding --cases=40 --seed=12 --trace_verdicts)
"$bin" "${vflags[@]}" --trace_out="$dir/v1.txt"
"$bin" "${vflags[@]}" --trace_out="$dir/v2.txt"
"$bin" --property=comparisons --cases=20 --seed=12 --trace_verdicts --trace_out="$dir/v3.txt"
"$bin" --property=comparisons --cases=20 --seed=12 --trace_verdicts --trace_out="$dir/v4.txt"
if ! cmp "$dir/v1.txt" "$dir/v2.txt" || ! cmp "$dir/v3.txt" "$dir/v4.txt"; then
  echo "FAIL: two processes gave different verdicts"
  exit 1
fi
# The shard JSON (counts, classes, histograms; not the wall-clock seconds)
# and the printed summary (not the throughput line) in two processes.
jflags=(--property=all --cases=60 --seed=13 --show=0)
"$bin" "${jflags[@]}" --json_out="$dir/j1.json" >"$dir/o1.txt" 2>/dev/null
"$bin" "${jflags[@]}" --json_out="$dir/j2.json" >"$dir/o2.txt" 2>/dev/null
grep -v '"seconds"' "$dir/j1.json" >"$dir/j1.cmp"
grep -v '"seconds"' "$dir/j2.json" >"$dir/j2.cmp"
grep -v 'throughput:' "$dir/o1.txt" >"$dir/o1.cmp"
grep -v 'throughput:' "$dir/o2.txt" >"$dir/o2.cmp"
if ! cmp "$dir/j1.cmp" "$dir/j2.cmp" || ! cmp "$dir/o1.cmp" "$dir/o2.cmp"; then
  echo "FAIL: two processes gave different shard JSON or summaries"
  exit 1
fi
# explore --map: text, JSON and SVG in two processes.
mflags=(--map --map_cases=12 --map_axes=regime,mss,messages --seed=14)
"$bin" "${mflags[@]}" --map_out="$dir/m1" >/dev/null 2>&1
"$bin" "${mflags[@]}" --map_out="$dir/m2" >/dev/null 2>&1
for ext in txt json svg; do
  if ! cmp "$dir/m1.$ext" "$dir/m2.$ext"; then
    echo "FAIL: two processes gave different map .$ext"
    exit 1
  fi
done
echo "PASS: $lines cases, byte-identical across two processes and two shards ($(md5sum <"$dir/a.txt" | cut -c1-12));" \
  "verdicts, shard JSON, summaries and the map identical across two processes"
