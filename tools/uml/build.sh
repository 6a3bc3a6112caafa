#!/usr/bin/env bash
# Builds Linux 6.1 and 6.12 as user-mode Linux (UML) kernels that run in
# virtual time, from Debian's linux-source-<series> packages, into a cache
# outside the repository. Each kernel is built once per machine: the cache key
# is the source package version plus a hash of this script's configuration, so
# a second run (or another clone) reuses the binary, and a changed option list
# or a new Debian source version builds a new one beside the old.
#
# Usage: tools/uml/build.sh [SERIES...]      build (or reuse) SERIES (default: 6.1 6.12)
#        tools/uml/build.sh --path SERIES    print the cached kernel's path; exit 1 if not built
#
# Environment: SENDSIM_UML_CACHE (default /var/cache/sendsim/uml), SENDSIM_UML_JOBS
# (default: number of cores). Builds run under `nice` so other work still progresses.
set -euo pipefail

CACHE=${SENDSIM_UML_CACHE:-/var/cache/sendsim/uml}
ALL_SERIES=(6.1 6.12)

# Options on top of `make ARCH=um defconfig`, one per line with why. Every one
# is checked in the final .config, so a silently dropped option fails the build.
CONFIG_OPTIONS=(
  "UML_TIME_TRAVEL_SUPPORT=y"  # time-travel=inf-cpu: virtual time, reruns give the same packets
  "HZ=250"                     # Debian's and the host's HZ; at HZ=100 timers fire a tick late (see UML_HZ)
  "NET_NS=y"                   # packetdrill's kernel target runs each script in its own netns
  "TUN=y"                      # packetdrill injects and captures packets through tun0
  "VETH=y"                     # real sockets talking to each other across namespaces
  "IPV6=y"                     # scripts and the tun setup touch net.ipv6 sysctls
  "SYN_COOKIES=y"              # net.ipv4.tcp_syncookies exists as on distribution kernels
  "TCP_MD5SIG=y"               # TCP_MD5SIG socket option as on distribution kernels
  "TCP_CONG_CUBIC=y"           # the model's congestion control ...
  'DEFAULT_TCP_CONG="cubic"'   # ... and the kernel's default, as on Debian (checked)
  "PACKET=y"                   # tcpdump inside the guest
  "INET_DIAG=y"                # ss inside the guest
  "INET_TCP_DIAG=y"            # (ss's TCP part)
  "NET_SCHED=y"                # qdiscs for link shaping between real sockets
  "NET_SCH_NETEM=y"            # delay/rate on veth
  "NET_SCH_FQ_CODEL=y"         # Debian's default qdisc (net.core.default_qdisc=fq_codel)
  "NET_SCH_FQ=y"               # pacing qdisc, for comparisons that want it
  "HOSTFS=y"                   # the host's / as read-only root, and a writable dir to return files
  "DEVTMPFS=y"                 # /dev/net/tun and friends without a prepared /dev
  "DEVTMPFS_MOUNT=y"           # (mounted at boot)
  "MAGIC_SYSRQ=y"              # `echo o > /proc/sysrq-trigger` powers the guest off
  "DEBUG_INFO_NONE=y"          # smaller, faster build; nobody debugs these binaries ...
  "DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=n"  # (the other choice, defconfig's)
  "DEBUG_INFO=n"               # (checked: no debug info)
)
# UML fixes HZ at 100 (arch/um/Kconfig declares it without a prompt, so no
# config option can change it); the build rewrites that default instead.
UML_HZ=250

# Our fix for hosts whose XSAVE image is larger than UML's fixed FP buffer
# (AMX hosts): see the file's header. Its content is part of the cache key.
XSTATE_FIX="$(dirname "${BASH_SOURCE[0]}")/xstate_fix.c"

log() { printf 'uml/build.sh: %s\n' "$*" >&2; }
die() { printf 'uml/build.sh: error: %s\n' "$*" >&2; exit "${2:-1}"; }
[[ -r "$XSTATE_FIX" ]] || die "missing $XSTATE_FIX (it belongs beside this script)"

config_hash() {
  { printf '%s\n' "${CONFIG_OPTIONS[@]}" "UML_HZ=$UML_HZ"; cat "$XSTATE_FIX"; } | sha256sum | cut -c1-12
}

package_version() {  # SERIES -> installed version of linux-source-SERIES, or empty
  dpkg-query -W -f='${db:Status-Status} ${Version}' "linux-source-$1" 2>/dev/null |
    awk '$1 == "installed" {print $2}'
}

kernel_dir() {  # SERIES VERSION -> cache directory of that build
  printf '%s/%s/%s-%s\n' "$CACHE" "$1" "$2" "$(config_hash)"
}

check_series() {
  local s
  for s in "${ALL_SERIES[@]}"; do [[ "$1" == "$s" ]] && return 0; done
  die "unknown kernel series '$1' (known: ${ALL_SERIES[*]})" 2
}

install_missing() {  # packages...
  local missing=() p st
  for p in "$@"; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [[ "$st" == installed ]] || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  [[ "$(id -u)" == 0 ]] || die "must run as root to install: ${missing[*]}"
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -q -o DPkg::Lock::Timeout=600 update >/dev/null || die "apt-get update failed"
  apt-get -q -o DPkg::Lock::Timeout=600 install -y "${missing[@]}" >/dev/null ||
    die "apt-get install failed for: ${missing[*]}"
}

# Prints "N files compiled, M s" every 30 s while make runs (the progress line).
progress() {  # SERIES DIR PID START
  local series=$1 dir=$2 pid=$3 start=$4 n
  while kill -0 "$pid" 2>/dev/null; do
    sleep 30
    n=$(find "$dir" -name '*.o' 2>/dev/null | wc -l) || n='?'  # files come and go
    log "$series: compiling, $n object files, $((SECONDS - start)) s"
  done
}

build_one() {  # SERIES
  local series=$1 version dir
  install_missing "linux-source-$series" bc flex bison libelf-dev build-essential
  version=$(package_version "$series")
  [[ -n "$version" ]] || die "linux-source-$series is not installed"
  dir=$(kernel_dir "$series" "$version")
  if [[ -x "$dir/linux" ]]; then
    log "$series: reusing $dir/linux (linux-source-$series $version)"
    return 0
  fi
  mkdir -p "$CACHE/$series"
  # One builder per series at a time; a second caller waits, then reuses.
  exec {lock}>"$CACHE/$series/.lock"
  flock "$lock"
  if [[ -x "$dir/linux" ]]; then
    log "$series: reusing $dir/linux (built while waiting)"
    exec {lock}>&-
    return 0
  fi
  local tarball=/usr/src/linux-source-$series.tar.xz
  [[ -r "$tarball" ]] || die "$tarball missing although linux-source-$series is installed"
  local work
  work=$(mktemp -d "$CACHE/$series/.build.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$work'" EXIT
  local start=$SECONDS
  log "$series: building linux-source-$series $version into $dir (takes 11-14 min per kernel on 2 cores)"
  log "$series: extracting $tarball"
  nice -n 10 tar -xJf "$tarball" -C "$work"
  local src="$work/linux-source-$series"
  [[ -d "$src" ]] || die "unexpected tarball layout in $tarball"
  local mk=(nice -n 10 make -C "$src" ARCH=um SUBARCH=x86_64)
  grep -q '^config HZ$' "$src/arch/um/Kconfig" || die "$series: arch/um/Kconfig declares no HZ"
  sed -i "/^config HZ\$/,/^\$/ s/^\tdefault [0-9]*\$/\tdefault $UML_HZ/" "$src/arch/um/Kconfig"
  # arch/x86/um/os-Linux/registers.c: rename the three FP-state functions the
  # fix replaces (save/restore_fp_registers, arch_init_registers; the last is
  # defined twice, for i386 and x86_64), then append the replacements.
  local regs="$src/arch/x86/um/os-Linux/registers.c" renamed
  sed -i -E 's/^(int|void) (save_fp_registers|restore_fp_registers|arch_init_registers)\(/static \1 sendsim_orig_\2(/' "$regs"
  renamed=$(grep -c '^static [a-z]* sendsim_orig_' "$regs" || true)
  [[ "$renamed" == 4 ]] || die "$series: expected 4 FP-state functions in $regs, renamed $renamed"
  cat "$XSTATE_FIX" >>"$regs"
  "${mk[@]}" defconfig >"$work/config.log" 2>&1 || die "defconfig failed (see $work/config.log)"
  local args=() opt name val
  for opt in "${CONFIG_OPTIONS[@]}"; do
    name=${opt%%=*} val=${opt#*=}
    case "$val" in
      y) args+=(--enable "$name") ;;
      n) args+=(--disable "$name") ;;
      \"*) args+=(--set-str "$name" "${val//\"/}") ;;
      *) [[ "$name" == HZ ]] || args+=(--set-val "$name" "$val") ;;
    esac
  done
  "$src/scripts/config" --file "$src/.config" "${args[@]}"
  "${mk[@]}" olddefconfig >>"$work/config.log" 2>&1 || die "olddefconfig failed"
  for opt in "${CONFIG_OPTIONS[@]}"; do
    name=${opt%%=*} val=${opt#*=}
    if [[ "$val" == n ]]; then
      ! grep -q "^CONFIG_$name=[ym]" "$src/.config" || die "$series: CONFIG_$name still set"
    else
      grep -qx "CONFIG_$name=$val" "$src/.config" ||
        die "$series: CONFIG_$name=$val did not stick ($(grep "CONFIG_$name[= ]" "$src/.config" || echo absent))"
    fi
  done
  log "$series: configured; compiling with ${SENDSIM_UML_JOBS:-$(nproc)} jobs"
  "${mk[@]}" -j"${SENDSIM_UML_JOBS:-$(nproc)}" linux >"$work/make.log" 2>&1 &
  local pid=$!
  progress "$series" "$src" "$pid" "$start" &
  local prog=$!
  if ! wait "$pid"; then
    kill "$prog" 2>/dev/null || true
    tail -n 30 "$work/make.log" >&2
    die "$series: make failed"
  fi
  kill "$prog" 2>/dev/null || true
  local stage="$work/out"
  mkdir -p "$stage"
  cp "$src/linux" "$src/.config" "$stage/"
  printf 'linux-source-%s %s\nbuild seconds %d\n' "$series" "$version" "$((SECONDS - start))" >"$stage/BUILDINFO"
  mv "$stage" "$dir"
  rm -rf "$work"
  trap - EXIT
  exec {lock}>&-
  log "$series: built $dir/linux in $((SECONDS - start)) s"
}

if [[ "${1:-}" == --path ]]; then
  [[ $# == 2 ]] || die "usage: $0 --path SERIES" 2
  check_series "$2"
  version=$(package_version "$2")
  [[ -n "$version" ]] || exit 1
  dir=$(kernel_dir "$2" "$version")
  [[ -x "$dir/linux" ]] || exit 1
  printf '%s/linux\n' "$dir"
  exit 0
fi
[[ "${1:-}" != -* ]] || die "usage: $0 [SERIES...] | --path SERIES" 2
series_list=("$@")
((${#series_list[@]})) || series_list=("${ALL_SERIES[@]}")
for s in "${series_list[@]}"; do check_series "$s"; done
for s in "${series_list[@]}"; do build_one "$s"; done
