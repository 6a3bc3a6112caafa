#!/bin/sh
# Runs //props:explore under Bazel test sharding (it reads
# TEST_TOTAL_SHARDS / TEST_SHARD_INDEX itself). Arguments: binary, flags.
set -e
bin="$1"
shift
exec "$bin" "$@"
