#!/usr/bin/env bash
# Prints docs/packetdrill-kernels.md's table: every script of
# testdata/packetdrill/ on the linux-6.1 and linux-6.12 model profiles and on
# the kernels they describe (uml-6.1, uml-6.12), with the reason of every
# verdict that is not PASS.
#
# Usage (from the top of the checkout):
#   bazel build -c opt //cli:sendsim && tools/uml/verdict_table.sh bazel-bin/cli/sendsim > table.md
set -euo pipefail
sendsim=${1:?usage: $0 SENDSIM_BINARY}
[[ -x "$sendsim" ]] || { echo "verdict_table.sh: $sendsim is not executable" >&2; exit 2; }
scripts=(testdata/packetdrill/*.pkt)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

columns=(linux-6.1 uml-6.1 linux-6.12 uml-6.12)
for c in "${columns[@]}"; do
  case $c in
    linux-*) "$sendsim" packetdrill --kernel="$c" "${scripts[@]}" >"$tmp/$c" || true ;;
    uml-*)
      # A missing kernel is reported, not built here (tools/uml/build.sh builds it).
      if ! "$(dirname "$0")/build.sh" --path "${c#uml-}" >/dev/null; then
        echo "not run: kernel not built" >"$tmp/$c"
        continue
      fi
      "$sendsim" packetdrill --target="$c" "${scripts[@]}" >"$tmp/$c" || true ;;
  esac
  grep -q ' passed, ' "$tmp/$c" || { echo "verdict_table.sh: $c gave no summary line" >&2; exit 1; }
done

printf '| script | model linux-6.1 | kernel uml-6.1 | model linux-6.12 | kernel uml-6.12 |\n'
printf '|---|---|---|---|---|\n'
notes=()
for s in "${scripts[@]}"; do
  row="| ${s##*/} |"
  for c in "${columns[@]}"; do
    if grep -q '^not run' "$tmp/$c"; then
      row+=" not run |"
      continue
    fi
    line=$(awk -v p="$s" '($1 == "PASS" || $1 == "FAIL" || $1 == "SKIP") && ($2 == p || $2 == p ":")' "$tmp/$c")
    verdict=${line%% *}
    if [[ -z "$line" ]]; then
      verdict="-"  # no verdict line (the run ended early)
    elif [[ "$verdict" != PASS ]]; then
      notes+=("- ${s##*/} on $c: ${line#*: }")
    fi
    row+=" ${verdict:--} |"
  done
  printf '%s\n' "$row"
done
printf '\n'
for c in "${columns[@]}"; do printf -- '%s: %s\n' "$c" "$(tail -n 1 "$tmp/$c")"; done
if ((${#notes[@]})); then
  printf '\nWhy not PASS, as the runner says it:\n\n'
  printf '%s\n' "${notes[@]}"
fi
