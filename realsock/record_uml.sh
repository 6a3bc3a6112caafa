#!/usr/bin/env bash
# The comparison on Linux 6.1 and 6.12 as user-mode Linux in virtual time
# (tools/uml/): builds realsock, boots each kernel, runs every writer of the
# default scenario on its sockets, prints the table and writes the recording
# to testdata/realsock/uml-SERIES.json. Run from the top of the checkout, as
# root. Usage: realsock/record_uml.sh [SERIES...]   (default: 6.1 6.12)
# Extra realsock flags: REALSOCK_FLAGS="--messages=50". Another launcher (a
# newer tools/uml/run.sh whose kernels are already built): UML_RUN=PATH.
# Exit status: 0 done, 1 failure, 77 a kernel cannot run here.
set -euo pipefail
run_sh=${UML_RUN:-tools/uml/run.sh}
[[ -x tools/uml/run.sh && -x "$run_sh" ]] || { echo "record_uml.sh: run from the top of the checkout" >&2; exit 2; }
series=("$@")
((${#series[@]})) || series=(6.1 6.12)
bazel build //realsock:realsock >&2
bin=$(readlink -f bazel-bin/realsock/realsock)
for s in "${series[@]}"; do
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  echo "realsock on UML $s ..." >&2
  # shellcheck disable=SC2086
  "$run_sh" --no-build --kernel "$s" --out "$out" -- \
    sh -c 'exec "$0" --json_out="$SENDSIM_UML_OUT/rec.json" "$@"' "$bin" ${REALSOCK_FLAGS:-}
  cp "$out/rec.json" "testdata/realsock/uml-$s.json"
  rm -rf "$out"
  trap - EXIT
done
