#!/usr/bin/env bash
# The kernel side on Linux 6.1 and 6.12 as user-mode Linux: the first cases
# of the quiescent cell and of the 16 KiB send-buffer cell, run again inside
# the kernel over the tun peer, must give exactly the packet sizes the
# committed recording (testdata/kernelreplay/uml-SERIES.json) holds for them
# (virtual time makes the kernel deterministic), and on those quiescent
# cases the model must give the same sizes as the kernel.
# When a kernel is not built (tools/uml/build.sh) or cannot run here, the
# test says so and passes without checking it.
set -uo pipefail
bin=tools/kernelreplay/kernelreplay
[[ -x $bin && -x tools/uml/run.sh ]] || { echo "missing $bin or tools/uml/run.sh in runfiles"; exit 1; }
if grep -q __asan_init "$bin"; then
  echo "AddressSanitizer binary: it cannot start inside UML; not checked"
  exit 0
fi
failures=0
for s in 6.1 6.12; do
  rec=testdata/kernelreplay/uml-$s.json
  if ! tools/uml/build.sh --path "$s" >/dev/null 2>&1; then
    echo "uml-$s: kernel not built here (tools/uml/build.sh $s); not checked"
    continue
  fi
  [[ -r $rec ]] || { echo "FAILED: no recording $rec"; failures=$((failures + 1)); continue; }
  out="$TEST_TMPDIR/out-$s"
  mkdir -p "$out"
  tools/uml/run.sh --no-build --kernel "$s" --out "$out" --timeout 900 -- \
    sh -c 'exec "$0" --kernel_side --series="$1" --cases=3 --cells="regime=quiescent;sndbuf=16384" --json_out="$SENDSIM_UML_OUT/kernel.json"' \
    "$PWD/$bin" "$s" 2>"$out/err"
  rc=$?
  if ((rc == 77)); then
    echo "uml-$s: cannot run here: $(tail -1 "$out/err"); not checked"
    continue
  fi
  if ((rc != 0)); then
    echo "FAILED: uml-$s kernel side exit $rc: $(tail -3 "$out/err")"
    failures=$((failures + 1))
    continue
  fi
  "$bin" --record="$out/kernel.json" --out="$out/rec.json" >"$out/table" || { echo "FAILED: --record"; failures=$((failures + 1)); continue; }
  cat "$out/table"
  python3 - "$rec" "$out/rec.json" <<'PY' || failures=$((failures + 1))
import json, sys
want = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
def runs(r):
    return {(c["axis"], c["value"], x["index"], y["writer"]): y for c in r["cells"] for x in c["cases"] for y in x["runs"]}
w, g = runs(want), runs(got)
bad = 0
for key, y in sorted(g.items()):
    if key not in w:
        print("FAILED: %s not in the recording" % (key,)); bad += 1; continue
    if y["kernel"] != w[key]["kernel"]:
        print("FAILED: %s kernel now %s, recorded %s" % (key, y["kernel"], w[key]["kernel"])); bad += 1
    if key[0] == "regime" and y["kernel"] != y["model"]:
        print("FAILED: quiescent %s kernel %s, model %s" % (key, y["kernel"], y["model"])); bad += 1
print("%d runs checked, %d failures" % (len(g), bad))
sys.exit(1 if bad or not g else 0)
PY
done
exit $((failures > 0))
