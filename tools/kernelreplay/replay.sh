#!/usr/bin/env bash
# The map's cases on Linux 6.1 and 6.12 as user-mode Linux in virtual time,
# over the tun peer, beside the model: builds kernelreplay, boots each
# kernel (tools/uml/run.sh), runs the sample's cases on its sockets, adds the
# model's side on this machine, writes testdata/kernelreplay/uml-SERIES.json
# and the zero-cost disagreements as fixtures, and prints the agreement
# table. Run from the top of the checkout, as root.
# Usage: tools/kernelreplay/replay.sh [SERIES...]   (default: 6.1 6.12)
# A smaller sample: KERNELREPLAY_CASES=5 (cases per cell),
# KERNELREPLAY_CELLS='regime=quiescent;sndbuf=16384'.
# Exit status: 0 done, 1 failure, 2 usage, 77 a kernel cannot run here.
set -euo pipefail
[[ -x tools/uml/run.sh && -d tools/kernelreplay ]] || { echo "replay.sh: run from the top of the checkout" >&2; exit 2; }
series=("$@")
((${#series[@]})) || series=(6.1 6.12)
for s in "${series[@]}"; do
  [[ "$s" == 6.1 || "$s" == 6.12 ]] || { echo "replay.sh: unknown series '$s' (known: 6.1, 6.12)" >&2; exit 2; }
done
bazel build //tools/kernelreplay >&2
bin=$(readlink -f bazel-bin/tools/kernelreplay/kernelreplay)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p testdata/kernelreplay/fixtures
for s in "${series[@]}"; do
  echo "kernelreplay on UML $s ..." >&2
  tools/uml/run.sh --no-build --kernel "$s" --out "$out" -- \
    sh -c 'exec "$0" --kernel_side --series="$1" --json_out="$SENDSIM_UML_OUT/kernel.json" --cases="$2" ${3:+"--cells=$3"}' \
    "$bin" "$s" "${KERNELREPLAY_CASES:-50}" "${KERNELREPLAY_CELLS:-}"
  rm -f testdata/kernelreplay/fixtures/uml-"$s"-*.txt
  "$bin" --record="$out/kernel.json" --out="testdata/kernelreplay/uml-$s.json" \
    --fixtures_dir=testdata/kernelreplay/fixtures
  rm -f "$out/kernel.json"
done
