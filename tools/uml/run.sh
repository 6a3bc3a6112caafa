#!/usr/bin/env bash
# Boots a user-mode Linux kernel from tools/uml/build.sh in virtual time
# (time-travel=inf-cpu), runs one command inside it as root, and returns the
# command's stdout, stderr and exit status as its own, plus the files the
# command wrote to $SENDSIM_UML_OUT.
#
# Usage: tools/uml/run.sh [options] -- COMMAND [ARG...]
#   --kernel SERIES   6.1 or 6.12 (default 6.1)
#   --out DIR         copy the files the command left in $SENDSIM_UML_OUT to DIR
#   --mem SIZE        guest memory (default 1G)
#   --timeout SECS    wall-clock limit for the whole boot and run (default 1800)
#   --no-build        do not build a missing kernel; exit 77 instead
#   --console FILE    keep the guest's console log in FILE
#
# Inside the guest: the host's / is the root file system, read-only, so
# binaries and inputs are found by their host paths; /tmp, /run and
# /dev/shm are empty tmpfs (host files under /tmp are not visible); /dev is
# devtmpfs; the working directory is the caller's. Only PATH, HOME=/root,
# LANG=C.UTF-8 and SENDSIM_UML_OUT / SENDSIM_UML_KERNEL are in the environment.
# Wait by sleeping, never by spinning on the clock: with infinitely fast CPU a
# spin never advances virtual time. The guest's clock starts at the host's
# wall clock at boot.
#
# Exit status: the command's; 77 when the kernel cannot run here (the reason
# on stderr); 2 for usage errors; 1 when the guest fails (console tail on
# stderr). The run directory under the cache is removed afterwards, on errors
# and signals too, and the kernel's processes are killed: nothing on the host
# changes but the cache and --out DIR.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${SENDSIM_UML_CACHE:-/var/cache/sendsim/uml}

die() { printf 'uml/run.sh: error: %s\n' "$1" >&2; exit "${2:-1}"; }
cannot_run() { printf 'uml/run.sh: cannot run here: %s\n' "$1" >&2; exit 77; }

series=6.1 out= mem=1G timeout=1800 build=1 console=
while (($#)); do
  case "$1" in
    --kernel) series=${2:?--kernel needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    --mem) mem=${2:?--mem needs a value}; shift 2 ;;
    --timeout) timeout=${2:?--timeout needs a value}; shift 2 ;;
    --no-build) build=0; shift ;;
    --console) console=${2:?--console needs a value}; shift 2 ;;
    --) shift; break ;;
    *) die "unknown option '$1' (usage: $0 [--kernel 6.1|6.12] [--out DIR] [--mem SIZE] [--timeout SECS] [--no-build] [--console FILE] -- COMMAND [ARG...])" 2 ;;
  esac
done
(($#)) || die "no command given (usage: $0 [options] -- COMMAND [ARG...])" 2
[[ "$series" == 6.1 || "$series" == 6.12 ]] || die "unknown kernel '$series' (known: 6.1, 6.12)" 2
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive whole number of seconds, got '$timeout'" 2
[[ "$mem" =~ ^[1-9][0-9]*[KMG]$ ]] || die "--mem must look like 512M or 1G, got '$mem'" 2

[[ "$PWD" != /tmp && "$PWD" != /tmp/* ]] ||
  die "the working directory $PWD is under /tmp, which the guest replaces with its own tmpfs; run from elsewhere" 2
[[ "$(uname -s)/$(uname -m)" == Linux/x86_64 ]] || cannot_run "UML kernels here are built for x86_64 Linux hosts, not $(uname -s)/$(uname -m)"
kernel=$("$HERE/build.sh" --path "$series" 2>/dev/null) || kernel=
if [[ -z "$kernel" ]]; then
  ((build)) || cannot_run "the $series kernel is not built (run tools/uml/build.sh $series)"
  "$HERE/build.sh" "$series" >&2 || cannot_run "building the $series kernel failed"
  kernel=$("$HERE/build.sh" --path "$series") || cannot_run "the $series kernel is missing after building"
fi
mkdir -p "$CACHE/runs" 2>/dev/null && [[ -w "$CACHE/runs" ]] ||
  cannot_run "$CACHE/runs is not writable (set SENDSIM_UML_CACHE)"
# The guest's memory is a file in $TMPDIR; tmpfs keeps it off the disk.
shm=/dev/shm
[[ -d "$shm" && -w "$shm" ]] || shm=${TMPDIR:-/tmp}
[[ -d "$shm" && -w "$shm" ]] || cannot_run "no writable /dev/shm or $shm for the guest's memory file"

run=$(mktemp -d "$CACHE/runs/run.XXXXXX")
[[ "$run" != /tmp/* ]] || die "the cache must not be under /tmp (the guest's /tmp is its own)"
pid=
cleanup() {
  local rc=$?
  if [[ -n "$pid" ]]; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$run"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$run/rw/out" "$run/rw/ctl"

# The command, quoted for the guest's shell.
{
  printf 'cd %q || exit 126\n' "$PWD"
  printf 'exec'
  printf ' %q' "$@"
  printf '\n'
} >"$run/command"

cat >"$run/init" <<INIT
#!/bin/sh
# PID 1 inside the guest: mounts, runs the command, powers off.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
mount -t hostfs -o $run/rw hostfs $run/rw || echo 'mount of the writable directory failed' >&2
ip link set lo up 2>/dev/null
env -i PATH="\$PATH" HOME=/root LANG=C.UTF-8 SENDSIM_UML_OUT=$run/rw/out SENDSIM_UML_KERNEL=$series \
  /bin/sh $run/command >$run/rw/ctl/stdout 2>$run/rw/ctl/stderr </dev/null
echo \$? >$run/rw/ctl/status
sync
umount $run/rw
echo o >/proc/sysrq-trigger
while :; do sleep 1; done
INIT
chmod +x "$run/init"

log=$run/console.log
# uml_dir: the kernel's umid files go to the run directory, not ~/.uml
# (which also needs no $HOME: without one make_umid crashes the guest).
mkdir -p "$run/umid"
TMPDIR=$shm setsid "$kernel" mem="$mem" uml_dir="$run/umid" rootfstype=hostfs rootflags=/ ro init="$run/init" \
  time-travel=inf-cpu con0=fd:0,fd:1 con=null ssl=null quiet \
  </dev/null >"$log" 2>&1 &
pid=$!
waited=0
while kill -0 "$pid" 2>/dev/null; do
  if ((waited >= timeout * 10)); then
    [[ -z "$console" ]] || cp "$log" "$console"
    tail -n 20 "$log" >&2
    die "the guest did not finish within $timeout s (wall clock)"
  fi
  sleep 0.1
  waited=$((waited + 1))
done
wait "$pid" 2>/dev/null || true
pid=
[[ -z "$console" ]] || cp "$log" "$console"
if [[ ! -s "$run/rw/ctl/status" ]]; then
  tail -n 20 "$log" >&2
  die "the guest ended without the command's exit status (console tail above)"
fi
cat "$run/rw/ctl/stdout"
cat "$run/rw/ctl/stderr" >&2
if [[ -n "$out" ]]; then
  mkdir -p "$out"
  cp -a "$run/rw/out/." "$out/"
fi
exit "$(cat "$run/rw/ctl/status")"
