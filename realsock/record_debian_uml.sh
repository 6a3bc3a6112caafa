#!/usr/bin/env bash
# The comparison on Debian's prebuilt user-mode Linux 6.1 (package
# user-mode-linux): a real 6.1 network stack, with ->sendpage and
# MSG_SENDPAGE_NOTLAST, but in real time at HZ=100 (no time travel), so the
# figures vary from run to run. Until the time-travel kernels of
# tools/uml/ are built, this is the 6.1 kernel the claim meets.
# Run from the top of the checkout, as root:
#   realsock/record_debian_uml.sh [OUT.json]   (default testdata/realsock/debian-uml-6.1.json)
# Environment: LINUX_UML (default /usr/bin/linux.uml), UML_MODULES (default
# /usr/lib/uml/modules/<its version>), REALSOCK_FLAGS (extra flags).
# Exit status: realsock's; 77 when no such kernel is installed.
set -euo pipefail
out=${1:-testdata/realsock/debian-uml-6.1.json}
kernel=${LINUX_UML:-/usr/bin/linux.uml}
[[ -x "$kernel" ]] || { echo "record_debian_uml.sh: cannot run here: no $kernel (apt-get install user-mode-linux)" >&2; exit 77; }
if [[ -z "${UML_MODULES:-}" ]]; then
  UML_MODULES=$(find /usr/lib/uml/modules -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 1)
fi
[[ -f "$UML_MODULES/kernel/drivers/net/veth.ko" ]] || { echo "record_debian_uml.sh: cannot run here: no veth.ko under '$UML_MODULES'" >&2; exit 77; }
bazel build //realsock:realsock >&2
bin=$(readlink -f bazel-bin/realsock/realsock)
# Not under /tmp: the guest mounts its own tmpfs there.
run=$(mktemp -d /var/tmp/realsock-uml.XXXXXX)
pid=
cleanup() {
  [[ -z "$pid" ]] || kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$run"
}
trap cleanup EXIT
mkdir -p "$run/rw"
cat >"$run/init" <<INIT
#!/bin/sh
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t hostfs -o $run/rw hostfs $run/rw
ip link set lo up
insmod $UML_MODULES/kernel/drivers/net/veth.ko
insmod $UML_MODULES/kernel/net/sched/sch_netem.ko
cd $PWD
$bin --json_out=$run/rw/rec.json ${REALSOCK_FLAGS:-} >$run/rw/stdout 2>$run/rw/stderr
echo \$? >$run/rw/status
sync
umount $run/rw
echo o >/proc/sysrq-trigger
while :; do sleep 1; done
INIT
chmod +x "$run/init"
"$kernel" mem=1G rootfstype=hostfs rootflags=/ ro init="$run/init" con0=fd:0,fd:1 con=null ssl=null quiet \
  </dev/null >"$run/console.log" 2>&1 &
pid=$!
wait "$pid" || true
pid=
[[ -s "$run/rw/status" ]] || { tail -n 20 "$run/console.log" >&2; echo "record_debian_uml.sh: the guest ended without a status" >&2; exit 1; }
cat "$run/rw/stdout"
cat "$run/rw/stderr" >&2
rc=$(cat "$run/rw/status")
[[ "$rc" != 0 ]] || cp "$run/rw/rec.json" "$out"
exit "$rc"
