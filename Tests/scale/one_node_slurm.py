"""A one-node Slurm cluster on loopback, started and stopped by a test.

munged, slurmctld and slurmd run as children of this process (foreground mode), with a munge
key, a slurm.conf (from Tests/scale/slurm.conf.in) and every state, spool, log and socket file
under one temporary directory; the daemons listen on free loopback ports. Clients find the
cluster through SLURM_CONF in `env()`. `start()` returns None when `srun hostname` answers, or
a one-line reason why this machine cannot host the cluster; `stop()` ends every daemon it
started (by pid), also after a failed start.
"""
import os
import shutil
import signal
import socket
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NODE = "offgrid-node"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def machine_memory_mb():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no MemTotal in /proc/meminfo")


class OneNodeSlurm:
    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        self.children = []  # (name, Popen)
        self.conf = os.path.join(self.dir, "slurm.conf")

    def env(self):
        env = dict(os.environ)
        env["SLURM_CONF"] = self.conf
        env["PATH"] = os.path.join(self.dir, "bin") + os.pathsep + env.get("PATH", "")
        return env

    def _client_wrappers(self):
        """Slurm's clients, each run with SLURM_CONF set. Inside a job the executor plugin's
        jobstep drops every SLURM_* variable but a few before its nested srun, so an srun there
        would look for /etc/slurm/slurm.conf, which a real cluster has and this test does not write."""
        directory = os.path.join(self.dir, "bin")
        os.makedirs(directory, exist_ok=True)
        for tool in ("srun", "sbatch", "squeue", "scancel", "sinfo", "scontrol", "sacct", "sacctmgr", "sshare"):
            real = shutil.which(tool)
            if real is None:
                continue
            path = os.path.join(directory, tool)
            with open(path, "w") as f:
                f.write(f"#!/bin/sh\nSLURM_CONF={self.conf} exec {real} \"$@\"\n")
            os.chmod(path, 0o755)

    def _log_tail(self, name, lines=5):
        path = os.path.join(self.dir, "log", name)
        if not os.path.exists(path):
            return ""
        with open(path, errors="replace") as f:
            tail = [l.strip() for l in f.readlines()[-lines:]]
        return " | ".join(tail)

    def _spawn(self, name, argv):
        log = open(os.path.join(self.dir, "log", name + ".out"), "w")
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self.env(),
                                   start_new_session=True)
        self.children.append((name, process))
        return process

    def _alive(self, name, process, log):
        if process.poll() is not None:
            return f"{name} exited with status {process.returncode}: {self._log_tail(name + '.out')} {self._log_tail(log)}".strip()
        return None

    def start(self, timeout=60):
        missing = [t for t in ("munged", "slurmctld", "slurmd", "srun", "sbatch", "squeue", "sinfo")
                   if shutil.which(t) is None and not os.path.exists(f"/usr/sbin/{t}")]
        if missing:
            return f"{', '.join(missing)} not installed (Debian packages slurm-wlm and munge: make test-deps)"
        if os.geteuid() != 0:
            return "the one-node cluster runs its daemons as root (SlurmUser=root); this test runs as uid %d" % os.geteuid()
        for sub in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        os.chmod(os.path.join(self.dir, "munge"), 0o700)
        key = os.path.join(self.dir, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        host = socket.gethostname().split(".")[0]
        fields = {"HOST": host, "NODE": NODE, "DIR": self.dir, "CTLD_PORT": str(free_port()),
                  "SLURMD_PORT": str(free_port()), "CPUS": str(os.cpu_count()),
                  # Leave the system some room; jobs ask for their measured peak RSS.
                  "MEM_MB": str(machine_memory_mb() - 1024)}
        with open(os.path.join(HERE, "slurm.conf.in")) as f:
            text = f.read()
        for k, v in fields.items():
            text = text.replace(f"@{k}@", v)
        with open(self.conf, "w") as f:
            f.write(text)
        self._client_wrappers()
        sbin = lambda t: shutil.which(t) or f"/usr/sbin/{t}"
        munge = self._spawn("munged", [sbin("munged"), "--foreground", "--force", "--num-threads=2",
                                       f"--socket={self.dir}/munge/munge.socket", f"--key-file={key}",
                                       f"--pid-file={self.dir}/munge/munged.pid",
                                       f"--log-file={self.dir}/log/munged.log",
                                       f"--seed-file={self.dir}/munge/munged.seed"])
        deadline = time.monotonic() + 10
        while not os.path.exists(f"{self.dir}/munge/munge.socket"):
            reason = self._alive("munged", munge, "munged.log")
            if reason or time.monotonic() > deadline:
                return reason or "munged did not create its socket within 10 s"
            time.sleep(0.1)
        ctld = self._spawn("slurmctld", [sbin("slurmctld"), "-D", "-i", "-f", self.conf])
        slurmd = self._spawn("slurmd", [sbin("slurmd"), "-D", "-N", NODE, "-f", self.conf])
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            for name, process, log in (("slurmctld", ctld, "slurmctld.log"), ("slurmd", slurmd, "slurmd.log")):
                reason = self._alive(name, process, log)
                if reason:
                    return reason
            try:
                probe = subprocess.run(["srun", "--immediate=5", "-N1", "-n1", "hostname"], env=self.env(),
                                       capture_output=True, text=True, timeout=15)
                if probe.returncode == 0 and probe.stdout.strip():
                    return None
                last = (probe.stderr or probe.stdout).strip().splitlines()[-1:] or [""]
                last = last[0]
            except subprocess.TimeoutExpired:
                last = "srun hostname did not answer within 15 s"
            time.sleep(1)
        return f"srun hostname did not answer within {timeout} s ({last}); slurmd: {self._log_tail('slurmd.log', 3)}"

    def stop(self):
        """Cancels every job of this private cluster, then SIGTERM to every daemon this object
        started, SIGKILL after 10 s; reaped either way."""
        if self.children and os.path.exists(self.conf):
            try:
                subprocess.run(["scancel", "--full", "--user", "root"], env=self.env(),
                               capture_output=True, timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        for name, process in reversed(self.children):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for name, process in reversed(self.children):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
        self.children = []
