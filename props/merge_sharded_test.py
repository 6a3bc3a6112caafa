#!/usr/bin/env python3
"""Prints the merged counts of //props:explore_sharded_test's last run.

Each shard of the test leaves explore-shard-K.json in its undeclared outputs
(bazel-testlogs/props/explore_sharded_test/shard_K_of_N/test.outputs/, zipped
by Bazel); this extracts them and runs `explore --merge` on them, which prints
one summary and exits non-zero when a shard is missing or unreadable.

Usage (from the workspace root, after `bazel test //props:explore_sharded_test`):
  python3 props/merge_sharded_test.py [TESTLOGS_DIR [EXPLORE_BINARY]]
"""
import glob
import os
import subprocess
import sys
import tempfile
import zipfile


def main(argv):
    logs = argv[1] if len(argv) > 1 else "bazel-testlogs/props/explore_sharded_test"
    binary = argv[2] if len(argv) > 2 else "bazel-bin/props/explore_opt"
    if len(argv) <= 2 and not os.path.exists(binary):
        binary = "bazel-bin/props/explore"
    zips = sorted(glob.glob(os.path.join(logs, "shard_*_of_*", "test.outputs", "outputs.zip")))
    plain = sorted(glob.glob(os.path.join(logs, "shard_*_of_*", "test.outputs", "explore-shard-*.json")))
    if not zips and not plain:
        print(f"merge_sharded_test: no shard outputs under {logs}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        files = list(plain)
        for i, z in enumerate(zips):
            with zipfile.ZipFile(z) as f:
                for name in f.namelist():
                    if name.endswith(".json"):
                        path = os.path.join(tmp, f"{i}-{os.path.basename(name)}")
                        with open(path, "wb") as out:
                            out.write(f.read(name))
                        files.append(path)
        if not files:
            print(f"merge_sharded_test: no explore-shard-*.json in {logs}", file=sys.stderr)
            return 2
        return subprocess.call([binary, "--merge=" + ",".join(files)])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
