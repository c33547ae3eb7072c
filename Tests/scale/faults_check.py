#!/usr/bin/env python3
"""Faults in the sharded workflow, with the local profile (make scale-slurm-check runs it).

  faults_check.py --snakemake .venv-scale/bin/snakemake --bin .build/release --out out/scale-faults \
      [--reference out/scale-slurm]

Run 1, a regions file with the sample's four regions plus `sea` (matches no data) and `broken`
(a ring that is not closed), and the routing job of liechtenstein-south killed with SIGKILL in
the middle of writing its pack (the real tool, OFFGRID_FAULT_AT=pack-partial-written):
the run fails; the errors name sea, broken and liechtenstein-south; every other shard is
complete; no pack or summary of south exists under its final name.
Run 2, the four regions, the workflow itself killed with SIGKILL (its process group) while
south's routing job runs: its summary, opened by the shell, is left behind, marked incomplete.
Run 3, the same: only south's routing and what depends on it (stitch, graph, summary) run, every
other file keeps its bytes and modification time, and the outputs equal REFERENCE's (the Slurm
run) byte for byte.
Run 4, west's extract deleted (a purged scratch directory): nothing runs while west's pack is up
to date; the extract asked for again is cut, and then only what is older than it runs (west's
routing, stitch, graph, summary), and the outputs equal REFERENCE's again.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE_REGIONS = os.path.join(ROOT, "pipelines", "config", "liechtenstein-4.geojson")
VICTIM = "liechtenstein-south"
# Directories of run records, not outputs: they differ between runs and executors.
RECORDS = ("logs", "benchmarks", "slurm-logs")


def say(message):
    print(f"scale-faults-check: {message}", file=sys.stderr, flush=True)


def fail(message):
    say(f"FAIL: {message}")
    sys.exit(1)


def snapshot(root):
    state = {}
    for base, dirs, files in os.walk(root):
        rel_base = os.path.relpath(base, root)
        if rel_base.split(os.sep)[0] in RECORDS:
            continue
        for n in files:
            path = os.path.join(base, n)
            with open(path, "rb") as f:
                state[os.path.relpath(path, root)] = (hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_mtime_ns)
    return state


def write_wrapper(directory, real_bin, mode_file, started_file):
    """tilepack-build that, for VICTIM's routing job, does what the mode file says: `kill` runs
    the real tool with a fault point that SIGKILLs it mid-write, `hang` marks the job started and
    waits to be killed with the workflow; anything else runs the real tool."""
    os.makedirs(directory, exist_ok=True)
    for tool in ("tilepack-unpack", "route-graph"):
        link = os.path.join(directory, tool)
        if not os.path.lexists(link):
            os.symlink(os.path.join(real_bin, tool), link)
    real = os.path.join(real_bin, "tilepack-build")
    script = f"""#!/bin/bash
# Test double (Tests/scale/faults_check.py): faults for {VICTIM}'s routing job only.
if [ "$1" = routing ] && [[ " $* " == *"/regions/{VICTIM}.geojson "* ]]; then
  case "$(cat {mode_file} 2>/dev/null)" in
    kill) OFFGRID_FAULT_AT=pack-partial-written exec {real} "$@" ;;
    hang) touch {started_file}; sleep 300 ;;
  esac
fi
exec {real} "$@"
"""
    path = os.path.join(directory, "tilepack-build")
    with open(path, "w") as f:
        f.write(script)
    os.chmod(path, 0o755)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--snakemake", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--reference", help="a clean run of the same four regions (the Slurm run's OUT)")
    args = parser.parse_args()
    work = os.path.abspath(args.out)
    out = os.path.join(work, "run")
    subprocess.run(["rm", "-rf", work], check=True)
    os.makedirs(work)
    mode_file, started_file = os.path.join(work, "fault-mode"), os.path.join(work, "victim-started")
    fault_bin = os.path.join(work, "bin")
    write_wrapper(fault_bin, os.path.abspath(args.bin), mode_file, started_file)
    with open(SAMPLE_REGIONS) as f:
        regions = json.load(f)
    regions["features"] += [
        {"type": "Feature", "properties": {"name": "sea"}, "geometry": {"type": "Polygon", "coordinates":
            [[[0.0, 0.0], [0.25, 0.0], [0.25, 0.25], [0.0, 0.25], [0.0, 0.0]]]}},
        {"type": "Feature", "properties": {"name": "broken"}, "geometry": {"type": "Polygon", "coordinates":
            [[[9.5, 47.0], [9.6, 47.0], [9.6, 47.1], [9.5, 47.1]]]}},
    ]
    if args.reference:
        # The reference run's region files and extracts (modification times kept) are this run's
        # too: they do not depend on the tools, so only sea's extract is cut again, which keeps
        # this test's osmium time (2.8 GB of id sets per extract) to two extracts.
        os.makedirs(out)
        for sub in ("regions", "extracts"):
            subprocess.run(["cp", "-a", os.path.join(args.reference, sub), os.path.join(out, sub)], check=True)
    bad_regions = os.path.join(work, "regions-with-faults.geojson")
    with open(bad_regions, "w") as f:
        json.dump(regions, f)

    def command(regions_file, *extra):
        return [args.snakemake, *extra, "-s", "pipelines/Snakefile", "--configfile", "pipelines/config/sample.yaml",
                "--profile", "pipelines/profiles/local", "--config", f"bin={fault_bin}", f"out={out}",
                f"regions={regions_file}"]

    def run(regions_file, mode, *extra):
        with open(mode_file, "w") as f:
            f.write(mode)
        started = time.monotonic()
        done = subprocess.run(command(regions_file, *extra), cwd=ROOT, capture_output=True, text=True)
        return done, done.stdout + done.stderr, time.monotonic() - started

    # Run 1: three faults in one run; everything else completes.
    done, log, seconds = run(bad_regions, "kill", "--retries", "0")
    with open(os.path.join(work, "run1.log"), "w") as f:
        f.write(log)
    if done.returncode == 0:
        fail(f"run 1 passed with a region of sea, a broken region and a killed job:\n{log}")
    for needle, what in (("region broken in", "the broken region named with its error"),
                         ("a ring is not closed", "why the broken region is refused"),
                         ("wildcards: region=sea", "the failing region sea named"),
                         ("no routable way in the region", "why sea fails (from its log)"),
                         (f"wildcards: region={VICTIM}", f"the killed job's region {VICTIM} named")):
        if needle not in log:
            fail(f"run 1 does not report {what} ('{needle}'); its output is in {work}/run1.log")
    for region in ("liechtenstein-west", "liechtenstein-northeast", "liechtenstein-vaduz"):
        for path in (f"routing/{region}.routing.pack", f"routing/{region}.routing.json", f"maps/{region}.json"):
            if not os.path.isfile(os.path.join(out, path)):
                fail(f"run 1 lost the completed shard {path}")
    for path in (f"routing/{VICTIM}.routing.pack", f"routing/{VICTIM}.routing.json", "liechtenstein.chg", "summary.json"):
        if os.path.exists(os.path.join(out, path)):
            fail(f"run 1 left {path} under its final name after its job was killed (or before its inputs existed)")
    leftovers = sorted(n for n in os.listdir(os.path.join(out, "routing")) if n.startswith(f".{VICTIM}.routing.pack.tmp-"))
    if not leftovers:
        fail("the killed job left no temporary pack: the fault point was not reached mid-write")
    say(f"run 1 ({seconds:.0f} s): sea, broken and the killed {VICTIM} reported by name; completed shards kept; "
        f"the killed pack only as {leftovers[0]} (a temporary name no rule reads)")

    # Run 2: the workflow killed with SIGKILL while the victim's job runs.
    with open(mode_file, "w") as f:
        f.write("hang")
    workflow = subprocess.Popen(command(SAMPLE_REGIONS), cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(work, "run2.log"), "w"), start_new_session=True)
    deadline = time.monotonic() + 600
    while not os.path.exists(started_file):
        if workflow.poll() is not None or time.monotonic() > deadline:
            os.killpg(workflow.pid, signal.SIGKILL) if workflow.poll() is None else None
            fail(f"run 2: {VICTIM}'s routing job never started (see {work}/run2.log)")
        time.sleep(0.2)
    os.killpg(workflow.pid, signal.SIGKILL)
    workflow.wait()
    partial = os.path.join(out, "routing", f"{VICTIM}.routing.json")
    marked = incomplete_markers()
    if partial not in marked:
        fail(f"run 2: Snakemake left no incomplete marker for {partial} (markers: {sorted(marked)})")
    say(f"run 2: workflow killed with SIGKILL during {VICTIM}'s routing job; its outputs are marked incomplete "
        f"({'its summary was left behind, empty' if os.path.exists(partial) else 'no summary left'})")
    # A workflow killed with SIGKILL cannot release its lock on its outputs: the documented step.
    subprocess.run(command(SAMPLE_REGIONS, "--unlock"), cwd=ROOT, capture_output=True, check=True)

    # Run 3: only what is missing or incomplete.
    before = snapshot(out)
    done, log, seconds = run(SAMPLE_REGIONS, "none")
    with open(os.path.join(work, "run3.log"), "w") as f:
        f.write(log)
    if done.returncode != 0:
        fail(f"run 3 failed:\n{log}")
    after = snapshot(out)
    changed = sorted(p for p in after if before.get(p) != after[p])
    allowed = (f"routing/{VICTIM}.", "routing/liechtenstein/", "liechtenstein.chg", "liechtenstein.graph.json", "summary.json")
    wrong = [p for p in changed if not p.startswith(allowed)]
    if wrong:
        fail(f"run 3 redid more than the killed job and what depends on it: {wrong}")
    if f"routing/{VICTIM}.routing.pack" not in changed:
        fail(f"run 3 did not rebuild {VICTIM}'s pack")
    if partial in incomplete_markers():
        fail(f"run 3 left {partial} marked incomplete")
    say(f"run 3 ({seconds:.0f} s): redid only {VICTIM}'s routing, stitch, graph and summary ({len(changed)} files); "
        f"{len(after) - len(changed)} files untouched")
    compare(out, args.reference, "run 3")

    # Run 4: one region's extract gone (a purged scratch directory). Nothing needs it while
    # west's pack is up to date, so nothing runs; with the pack gone too, the extract is cut again.
    os.remove(os.path.join(out, "extracts", "liechtenstein-west.0.osm.pbf"))
    before = snapshot(out)
    done, log, seconds = run(SAMPLE_REGIONS, "none")
    if done.returncode != 0 or "Nothing to be done" not in log or snapshot(out) != before:
        fail(f"run 4 (west's extract deleted, its pack up to date) did work:\n{log}")
    # Asked for explicitly (as after restoring a scratch directory), the extract is cut again, and
    # then only what is older than it runs: west's routing, the stitch, graph and summary.
    extract = os.path.join(out, "extracts", "liechtenstein-west.0.osm.pbf")
    before = snapshot(out)
    done, log, _ = run(SAMPLE_REGIONS, "none", extract)
    after = snapshot(out)
    changed = sorted(p for p in after if before.get(p) != after[p])
    if done.returncode != 0 or changed != ["extracts/liechtenstein-west.0.osm.pbf"]:
        fail(f"run 4 (west's extract asked for) changed {changed}:\n{log}")
    before = snapshot(out)
    done, log, seconds = run(SAMPLE_REGIONS, "none")
    if done.returncode != 0:
        fail(f"run 4 failed:\n{log}")
    after = snapshot(out)
    changed = sorted(p for p in after if before.get(p) != after[p])
    allowed = ("routing/liechtenstein-west.", "routing/liechtenstein/",
               "liechtenstein.chg", "liechtenstein.graph.json", "summary.json")
    wrong = [p for p in changed if not p.startswith(allowed)]
    if wrong or "routing/liechtenstein-west.routing.pack" not in changed:
        fail(f"run 4 (west's extract cut again) redid {changed}")
    say(f"run 4 ({seconds:.0f} s): a deleted extract alone redid nothing (its pack was up to date); cut again, "
        "only west's routing, the stitch, graph and summary ran after it")
    compare(out, args.reference, "run 4")
    say("OK")


def incomplete_markers():
    """The outputs Snakemake has marked incomplete (.snakemake/incomplete/<base64 of the path>):
    files of a job that started and never finished, which the next run redoes, never trusts."""
    directory = os.path.join(ROOT, ".snakemake", "incomplete")
    marked = set()
    for name in os.listdir(directory) if os.path.isdir(directory) else []:
        try:
            marked.add(os.path.join(ROOT, base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()))
        except (ValueError, UnicodeDecodeError):
            pass
    return marked


def compare(out, reference, label):
    """Every output of the reference run has the same bytes here (records and the faulty
    regions' leftovers aside)."""
    if not reference:
        return
    # The tools' own JSON summaries hold times and paths; summary.json is their stable merge.
    volatile = re.compile(r"^(routing/[^/]+\.routing\.json|maps/[^/]+\.json|[^/]+\.graph\.json|[^/]+\.stylepack\.json)$")
    ours, theirs = snapshot(out), {p: v for p, v in snapshot(reference).items() if not volatile.match(p)}
    missing = sorted(p for p in theirs if p not in ours)
    differ = sorted(p for p in theirs if p in ours and ours[p][0] != theirs[p][0])
    if missing or differ:
        fail(f"{label}: outputs differ from {reference}: missing {missing}, different bytes {differ}")
    say(f"{label}: all {len(theirs)} output files byte-identical to {reference}")


if __name__ == "__main__":
    main()
