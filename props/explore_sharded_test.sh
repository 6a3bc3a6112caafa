#!/bin/sh
# Runs //props:explore under Bazel test sharding (it reads TEST_TOTAL_SHARDS
# and TEST_SHARD_INDEX itself) and keeps this shard's counts as JSON in the
# test's undeclared outputs, for merge_sharded_test.py. Arguments: binary,
# flags.
set -e
bin="$1"
shift
out="${TEST_UNDECLARED_OUTPUTS_DIR:-.}/explore-shard-${TEST_SHARD_INDEX:-0}.json"
exec "$bin" "$@" --json_out="$out"
