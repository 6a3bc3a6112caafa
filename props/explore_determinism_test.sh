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
echo "PASS: $lines cases, byte-identical across two processes and two shards ($(md5sum <"$dir/a.txt" | cut -c1-12))"
