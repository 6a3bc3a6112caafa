#!/usr/bin/env bash
# Installs the Debian 12 packages sendsim needs to build, test and run.
#
# Idempotent: it asks dpkg which packages are missing and installs exactly
# those; `apt-get update` runs only when something is missing. When nothing is
# missing it changes nothing and needs no root. Everything comes from Debian's
# archive; Bazel downloads nothing (see WORKSPACE and third_party/).
#
# Usage: tools/setup.sh            (as root when something must be installed)
set -euo pipefail

# One package per line, with why. Add yours here (and say why).
PACKAGES=(
  bazel-bootstrap      # Bazel 4.2.3, the build
  build-essential      # g++ 12, ar, make: the C++ toolchain
  libgtest-dev         # GoogleTest (@com_google_googletest)
  libgmock-dev         # GoogleMock (@com_google_googletest)
  librapidcheck-dev    # RapidCheck with rapidcheck/gtest.h (@rapidcheck)
  libabsl-dev          # Abseil 20220623 (@com_google_absl)
  libbenchmark-dev     # Google Benchmark (@com_google_benchmark)
  nlohmann-json3-dev   # scenario files (@nlohmann_json)
  libisal-dev          # Intel ISA-L crc32_iscsi: the messenger's crc32c (@isal)
  libboost-dev         # Boost.CRC: the independent crc32c reference in tests (@boost)
  python3              # .ci/run result parsing, tools/*.py
  tshark               # pcap tests: decode what sendsim writes
  tcpdump              # pcap tests and kernel comparison captures
  iproute2             # kernel comparison: ip netns, veth, tc
  ethtool              # kernel comparison: TSO/GSO/GRO offload switches
  clang                # fuzzing (libFuzzer)
  libclang-rt-14-dev   # clang's sanitizer and libFuzzer runtimes
)

log() { printf 'setup.sh: %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

command -v dpkg-query >/dev/null 2>&1 ||
  die "dpkg-query not found: this script supports Debian 12 only"

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$pkg")
done

# Linux 6.1 and 6.12 as user-mode Linux for `--target=uml-*` (tools/uml/):
# built once per machine into a cache (11 and 14 min measured on two cores), then
# reused. SENDSIM_SKIP_UML=1 leaves them out.
build_uml_kernels() {
  [[ "${SENDSIM_SKIP_UML:-}" == 1 ]] && return 0
  "$(dirname "$0")/uml/build.sh" || die "building the user-mode Linux kernels failed"
}

if ((${#missing[@]} == 0)); then
  log "all ${#PACKAGES[@]} packages already installed"
  build_uml_kernels
  exit 0
fi

log "missing ${#missing[@]} of ${#PACKAGES[@]} packages: ${missing[*]}"
[[ "$(id -u)" == 0 ]] ||
  die "must run as root to install: ${missing[*]} (e.g. sudo $0)"

export DEBIAN_FRONTEND=noninteractive
# Other apt users (unattended upgrades, parallel setups) hold the lock briefly.
APT=(apt-get -q -o DPkg::Lock::Timeout=600)

log "running apt-get update"
"${APT[@]}" update >/dev/null || die "apt-get update failed"

unavailable=()
for pkg in "${missing[@]}"; do
  candidate=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
  [[ -n "$candidate" && "$candidate" != "(none)" ]] || unavailable+=("$pkg")
done
((${#unavailable[@]} == 0)) ||
  die "not available from the configured Debian archive: ${unavailable[*]}"

log "installing: ${missing[*]}"
"${APT[@]}" install -y "${missing[@]}" ||
  die "apt-get install failed for: ${missing[*]}"

for pkg in "${missing[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || die "$pkg still not installed after apt-get install"
done
log "installed ${#missing[@]} packages: ${missing[*]}"
build_uml_kernels
