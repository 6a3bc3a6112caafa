#!/usr/bin/env python3
"""Counts passed and failed targets from a Bazel build-event JSON file.

Usage: bep_summary.py NAME=EXIT_CODE=FILE [NAME=EXIT_CODE=FILE ...]
For each run prints its failing labels and "NAME: P passed, F failed (...)";
then, alone on the last line, the totals over all runs, "P passed, F failed".
Exits 0 only when every run has F == 0 and P > 0.

Counts come from Bazel's own per-target events, never from its console text;
exit codes and build-level events can only add a failure, never hide one:
  * a test target passes only if its testSummary says PASSED (cached results
    count: they are the PASSED verdict of identical inputs);
  * a test target that failed, timed out, failed to build, was skipped
    because something else broke (aborted), or got no summary at all, fails;
  * a non-test target (library, binary) that failed to build or was aborted
    counts as one failure, since `bazel test //...` builds it too;
  * a build that Bazel itself reports as unsuccessful while no target above
    failed (e.g. a BUILD file that does not load) counts as one failure;
  * a file with no test targets at all, or no buildFinished event, fails;
  * a nonzero exit code of the run (bazel's, or setup's before bazel started)
    with no failure found above counts as one failure.
"""
import json
import sys


def label_of(event_id):
    for value in event_id.values():
        if isinstance(value, dict) and "label" in value:
            return value["label"]
    return None


def summarize(name, exit_code, path):
    """Prints the run's failures and counts; returns (passed, failed, ok)."""
    kinds = {}        # label -> targetKind, from targetConfigured
    tests = set()     # labels of test rules
    summary = {}      # label -> overallStatus
    built = {}        # label -> success bool, from targetCompleted
    aborted = {}      # label -> reason
    other_aborts = []
    finished = None
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError as e:
        lines = []
        other_aborts.append("no build events (%s)" % e.strerror)
    for line in lines:
        line = line.strip()
        if not line:
            continue
        event = json.loads(line)
        eid = event.get("id", {})
        label = label_of(eid)
        if "aborted" in event:
            reason = event["aborted"].get("reason", "UNKNOWN")
            if label:
                aborted.setdefault(label, reason)
            elif reason not in ("NO_BUILD", "SKIPPED"):
                other_aborts.append("%s %s" % (next(iter(eid), "?"), reason))
        elif "targetConfigured" in eid:
            kind = event.get("configured", {}).get("targetKind", "")
            kinds[label] = kind
            if kind.endswith("_test rule") or "testSize" in event.get("configured", {}):
                tests.add(label)
        elif "targetCompleted" in eid:
            built[label] = built.get(label, True) and bool(
                event.get("completed", {}).get("success", False))
        elif "testSummary" in eid:
            summary[label] = event.get("testSummary", {}).get("overallStatus", "NO_STATUS")
        elif "buildFinished" in eid:
            finished = event.get("finished", {})

    passed, failed = [], []
    for label in sorted(tests):
        status = summary.get(label)
        if status is None:
            if label in aborted:
                status = "NOT_BUILT(%s)" % aborted[label]
            elif built.get(label) is False:
                status = "FAILED_TO_BUILD"
            else:
                status = "NO_STATUS"
        (passed if status == "PASSED" else failed).append((label, status))
    for label in sorted(set(kinds) | set(built) | set(aborted)):
        if label in tests:
            continue
        if built.get(label) is False:
            failed.append((label, "FAILED_TO_BUILD"))
        elif label in aborted and aborted[label] not in ("NO_BUILD", "SKIPPED"):
            failed.append((label, "NOT_BUILT(%s)" % aborted[label]))
    for what in other_aborts:
        failed.append(("(bazel)", what))
    if not tests:
        failed.append(("(bazel)", "no test targets: nothing ran"))
    if finished is None:
        failed.append(("(bazel)", "no buildFinished event: the build did not finish"))
    elif not finished.get("overallSuccess", False) and not failed:
        code = finished.get("exitCode", {}).get("name", "UNKNOWN")
        failed.append(("(bazel)", "build unsuccessful (%s) with no failing target" % code))
    if exit_code != 0 and not failed:
        failed.append(("(run)", "exit code %d with no failing target" % exit_code))

    for label, status in failed:
        print("  FAILED %s: %s" % (label, status))
    print("%s: %d passed, %d failed (%d test targets)" % (name, len(passed), len(failed), len(tests)))
    return len(passed), len(failed), bool(passed) and not failed


def main():
    runs = [arg.split("=", 2) for arg in sys.argv[1:]]
    if not runs or any(len(r) != 3 or not r[1].lstrip("-").isdigit() for r in runs):
        sys.exit("usage: bep_summary.py NAME=EXIT_CODE=FILE [NAME=EXIT_CODE=FILE ...]")
    total_passed = total_failed = 0
    all_ok = True
    for name, exit_code, path in runs:
        passed, failed, ok = summarize(name, int(exit_code), path)
        total_passed += passed
        total_failed += failed
        all_ok = all_ok and ok
    if not all_ok and total_failed == 0:
        total_failed = 1  # unreachable: a run with no pass already counts a failure
    print("%d passed, %d failed" % (total_passed, total_failed))
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
