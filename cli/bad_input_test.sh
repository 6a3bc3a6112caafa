#!/usr/bin/env bash
# The bad-input battery: every row of testdata/badinput/cases.tsv is a
# command line (sendsim, sendsim packetdrill, explore) given bad input, with
# the exit code and the first line it must give. Each runs in a fresh
# scratch folder $T holding keep.svg and s.json; afterwards the folder must
# hold exactly those two files, unchanged (no partial, temporary or
# truncated output), within 60 s and (outside ASan) 4 GiB of address space.
# "$D" in an expected first line stands for this folder's absolute path.
# Every case also prints its first line at most 400 characters long and,
# when it fails, at most one line on stderr.
# Usage: bad_input_test.sh SENDSIM EXPLORE CASES_TSV
set -u
SENDSIM=$(realpath "$1")
EXPLORE=$(realpath "$2")
CASES=$3
# Short paths, so that the messages' 80-character cut of echoed paths
# leaves the file names visible: the data folder behind a symlink and the
# scratch folders under /tmp.
scratch=$(mktemp -d /tmp/sendsim-bad.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
ln -s "$(realpath "$(dirname "$CASES")")" "$scratch/d"
D=$scratch/d
export SENDSIM EXPLORE D
fail=0
count=0
while IFS=$'\t' read -r name want_rc want_first cmd; do
  [[ -z $name || $name == \#* ]] && continue
  count=$((count + 1))
  want_first=${want_first//'$D'/$D}
  T=$(mktemp -d "$scratch/case.XXXXXX")
  out=$(mktemp "$scratch/out.XXXXXX")
  err=$(mktemp "$scratch/err.XXXXXX")
  rss=$(mktemp "$scratch/rss.XXXXXX")
  cp "$D/s.json" "$T/s.json"
  echo KEEP >"$T/keep.svg"
  before=$(cd "$T" && ls -A && md5sum keep.svg s.json)
  start=$EPOCHREALTIME
  (
    cd "$T" || exit 99
    [[ -z ${ASAN_OPTIONS:-} ]] && ulimit -v 4194304
    if [[ -x /usr/bin/time ]]; then
      # Peak RSS of the largest process of the case, for the record.
      T=$T exec /usr/bin/time -f %M -o "$rss" timeout 60 bash -c "$cmd" >"$out" 2>"$err"
    fi
    T=$T exec timeout 60 bash -c "$cmd" >"$out" 2>"$err"
  )
  rc=$?
  kb=$(tail -n 1 "$rss" 2>/dev/null)
  if [[ -s $err ]]; then first=$(head -n 1 "$err"); else first=$(head -n 1 "$out"); fi
  after=$(cd "$T" && ls -A && md5sum keep.svg s.json 2>/dev/null)
  problems=()
  [[ $rc == "$want_rc" ]] || problems+=("exit $rc, want $want_rc")
  [[ ${first:0:${#want_first}} == "$want_first" ]] || problems+=("first line differs; want: $want_first")
  ((${#first} <= 400)) || problems+=("first line is ${#first} characters long")
  if [[ $rc != 0 && $(wc -l <"$err") -gt 1 ]]; then problems+=("$(wc -l <"$err") lines on stderr"); fi
  [[ $before == "$after" ]] || problems+=("the scratch folder changed: $(cd "$T" && ls -A | tr '\n' ' ')")
  ms=$(((${EPOCHREALTIME/./} - ${start/./}) / 1000))
  printf '%-40s exit %-3s %6d ms %8s kB  %s\n' "$name" "$rc" "$ms" "${kb:--}" "${first:0:200}"
  if ((${#problems[@]} > 0)); then
    fail=1
    for p in "${problems[@]}"; do printf '    FAILED: %s\n' "$p"; done
  fi
  rm -rf "$T" "$out" "$err" "$rss"
done <"$CASES"
echo "$count bad inputs"
if ((count < 100)); then
  echo "FAILED: fewer than 100 cases"
  fail=1
fi
exit $fail
