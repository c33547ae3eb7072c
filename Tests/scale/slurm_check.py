#!/usr/bin/env python3
"""The sharded workflow on a real one-node Slurm cluster (make scale-slurm-check).

  slurm_check.py --snakemake .venv-scale/bin/snakemake --bin .build/release \
      --out out/scale-slurm --pipeline out/smoke [--result out/scale-slurm.json]

1. Starts munged, slurmctld and slurmd on loopback (Tests/scale/one_node_slurm.py) and waits for
   `srun hostname`.
2. Runs pipelines/Snakefile on the sample in four regions with --profile pipelines/profiles/slurm
   (snakemake-executor-plugin-slurm: every job an sbatch job) into OUT.
3. Checks, with pipelines/check_scale.py, that the stitched tiles, the graph and the map packs are
   byte-identical to the single-machine pipeline's (PIPELINE, e.g. make smoke's out/smoke), that
   the jobs really ran as Slurm jobs, and that a second run through Slurm does nothing.
4. Stops every daemon it started, also on failure or interruption.

If this machine cannot host the cluster (no slurm-wlm/munge, not root, slurmd does not start),
it says so on stderr and in the result file, and runs the local profile instead: the result
reads "executor": "local", never a silent pass.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from one_node_slurm import OneNodeSlurm  # noqa: E402

# The jobs that run as Slurm jobs (region_file, summary and all are local rules).
CLUSTER_RULES = {"extract": 4, "routing": 4, "maps": 4, "style": 1, "stitch": 1, "graph": 1}


def say(message):
    print(f"scale-slurm-check: {message}", file=sys.stderr, flush=True)


def fail(message):
    say(f"FAIL: {message}")
    sys.exit(1)


def snakemake(args, profile, out, env, extra=()):
    command = [args.snakemake, "-s", "pipelines/Snakefile", "--configfile", "pipelines/config/sample.yaml",
               "--profile", f"pipelines/profiles/{profile}", "--config", f"bin={args.bin}", f"out={out}", *extra]
    started = time.monotonic()
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return run, time.monotonic() - started, command


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--snakemake", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--pipeline", required=True, help="the single-machine pipeline's output directory")
    parser.add_argument("--result", help="JSON result file (default OUT.json)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    result_path = args.result or out.rstrip("/") + ".json"
    if not os.access(args.snakemake, os.X_OK):
        fail(f"{args.snakemake} missing: run make scale-deps")
    subprocess.run(["rm", "-rf", out], check=True)
    os.makedirs(os.path.dirname(out), exist_ok=True)

    # SIGTERM (make interrupted, CI timeout) unwinds like Ctrl-C, so the finally below stops the daemons.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = tempfile.mkdtemp(prefix="offgrid-slurm-")
    cluster = OneNodeSlurm(work)
    result = {"executor": None, "out": out}
    try:
        started = time.monotonic()
        reason = cluster.start()
        if reason is None:
            say(f"one-node Slurm cluster up in {time.monotonic() - started:.1f} s (srun hostname answers; {work})")
            env = cluster.env()
            # Quick status polling for a test: finished jobs stay in squeue for MinJobAge=600 s.
            extra = ["--slurm-init-seconds-before-status-checks", "2", "--slurm-status-command", "squeue",
                     "--slurm-logdir", os.path.join(out, "slurm-logs"), "--latency-wait", "5"]
            run, seconds, command = snakemake(args, "slurm", out, env, extra)
            result.update(executor="slurm", seconds=round(seconds, 1))
            if run.returncode != 0:
                fail(f"the workflow failed on Slurm:\n{run.stdout}{run.stderr}\n"
                     f"slurmctld log: {cluster._log_tail('slurmctld.log', 10)}")
            say(f"workflow ran on Slurm in {seconds:.1f} s")
            jobs = subprocess.run(["squeue", "--states=all", "-h", "-o", "%T|%k"], env=env,
                                  capture_output=True, text=True, check=True).stdout.split("\n")
            done = {}
            for line in filter(None, jobs):
                state, comment = line.split("|", 1)
                if not comment.startswith("rule_"):
                    continue  # the srun hostname probe
                if state != "COMPLETED":
                    fail(f"a Slurm job ended {state}: {comment}")
                rule = comment[len("rule_"):].split("_wildcards_")[0]
                done[rule] = done.get(rule, 0) + 1
            if done != CLUSTER_RULES:
                fail(f"Slurm ran {done}, expected {CLUSTER_RULES}")
            result["slurmJobs"] = done
            say(f"{sum(done.values())} Slurm jobs COMPLETED: {done}")
        else:
            say(f"SLURM UNAVAILABLE: this machine cannot host the one-node cluster: {reason}")
            say("running the LOCAL profile instead; this is not a Slurm pass")
            env = dict(os.environ)
            result.update(executor="local", slurmUnavailable=reason)
            run, seconds, command = snakemake(args, "local", out, env)
            result["seconds"] = round(seconds, 1)
            if run.returncode != 0:
                fail(f"the workflow failed with the local profile:\n{run.stdout}{run.stderr}")
            extra = []
        profile = result["executor"]
        rerun = [args.snakemake, "-s", "pipelines/Snakefile", "--configfile", "pipelines/config/sample.yaml",
                 "--profile", f"pipelines/profiles/{profile}", "--config", f"bin={args.bin}", f"out={out}", *extra]
        check = subprocess.run([sys.executable, os.path.join(ROOT, "pipelines", "check_scale.py"),
                                "--scale", out, "--pipeline", args.pipeline, "--name", "liechtenstein",
                                "--", *rerun], cwd=ROOT, env=env, capture_output=True, text=True)
        sys.stderr.write(check.stdout + check.stderr)
        if check.returncode != 0:
            fail(f"{out} does not match {args.pipeline} (see above)")
        result["identicalToPipeline"] = args.pipeline
    finally:
        cluster.stop()
    # Reached only on success: after a failure the cluster's directory (daemon logs) is kept.
    shutil.rmtree(work, ignore_errors=True)
    with open(result_path, "w") as f:
        f.write(json.dumps(result, indent=2, sort_keys=True) + "\n")
    if result["executor"] == "slurm":
        say(f"OK on a one-node Slurm cluster; result in {result_path}")
    else:
        say(f"OK WITH THE LOCAL PROFILE ONLY (Slurm unavailable: {result['slurmUnavailable']}); result in {result_path}")


if __name__ == "__main__":
    main()
