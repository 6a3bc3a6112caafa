#!/usr/bin/env bash
# The README's test command: install what is missing, then run the whole
# suite. Extra arguments go to `bazel test` (e.g. --config=asan).
# .ci/run calls this very script, so README and CI cannot drift apart.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
exec bazel test //... "$@"
