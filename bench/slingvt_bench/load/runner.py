"""Load generation: wrk (closed model) and oha (open model) under one process control, and the steady-state
rate of a wrk run."""
import json
import os
import shutil
import subprocess
import sys
import threading
import time

from slingvt_bench.core.common import BenchError, RUNNING, affinity_fn, log, stop_pid
from slingvt_bench.load import oha as openload
from slingvt_bench.samples.sampling import proc_cpu_seconds

# bench/, where wrk-json.lua (the script that makes wrk write its summary as JSON) lives.
BENCH_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_load(args, name, cmd, limit_s, stdout, stderr, env=None, sampler=None, usage=None):
    """Runs a load generator in a session of its own on the load CPUs, registered for Ctrl-C, stopped by PID
    after limit_s at the latest; returns its exit code (None if it had to be stopped). usage (a dict), if given,
    gets the generator's CPU share over its run (client_cpu_pct, ClientCpu)."""
    p = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=affinity_fn(args.load_cpus))
    RUNNING[p.pid] = name
    cpu = ClientCpu(p.pid).start()
    try:
        if sampler:
            sampler(p)
        p.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        log(f"{name} (PID {p.pid}) overran {limit_s} s; stopping it")
    finally:
        cpu.stop()
        if p.poll() is None:
            stop_pid(p.pid, name, timeout=10)
        RUNNING.pop(p.pid, None)
    if usage is not None:
        usage["client_cpu_pct"] = cpu.percent()
    return p.returncode


class ClientCpu:
    """The load generator's CPU (utime + stime of all its threads) read from /proc every READ_S while it runs: on 2
    cores it shares the CPUs with the server, and an open model with thousands of connections costs it more than a
    closed one, which bounds what the server can get. The last read before it exits stands for its total (at most
    READ_S of its run unread)."""
    READ_S = 0.25

    def __init__(self, pid):
        self.pid, self.first, self.last, self.t0, self.t1 = pid, None, None, None, None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"client-cpu-{pid}", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def _run(self):
        while True:
            v = proc_cpu_seconds(self.pid)
            if v is None:
                return
            now = time.monotonic()
            if self.first is None:
                self.first, self.t0 = v, now
            self.last, self.t1 = v, now
            if self.done.wait(self.READ_S):
                return

    def stop(self):
        self.done.set()
        self.thread.join(timeout=2)

    def percent(self):
        """CPU seconds per wall-clock second between the first and the last read, in % of one CPU; "" with fewer
        than two reads a second apart."""
        if self.first is None or self.t1 - self.t0 < 1.0:
            return ""
        return round(100.0 * (self.last - self.first) / (self.t1 - self.t0), 1)


def run_wrk(args, url, conns, duration, out_json, timeout_s, sampler=None):
    """wrk on url, or on a list of URLs (the kinds of a mixed workload, taken at random per request by
    wrk-json.lua)."""
    urls = [url] if isinstance(url, str) else url
    threads = max(2, min(args.wrk_threads, conns))
    cmd = [args.wrk, "-t", str(threads), "-c", str(conns), "-d", f"{duration}s", "--timeout", f"{timeout_s}s",
           "-s", os.path.join(BENCH_DIR, "wrk-json.lua"), urls[0]]
    env = dict(os.environ, WRK_JSON_OUT=out_json)
    if len(urls) > 1:
        env["WRK_PATHS"] = " ".join(u[u.index("/", u.index("//") + 2):] for u in urls)
    if os.path.exists(out_json):
        os.remove(out_json)
    usage = {}
    with open(out_json.replace(".json", ".txt"), "w") as txt:
        run_load(args, "wrk", cmd, duration + 90, txt, subprocess.STDOUT, env, sampler, usage)
    try:
        with open(out_json) as f:
            return dict(json.load(f), **usage)
    except (OSError, ValueError):
        raise BenchError(f"wrk wrote no summary; see {out_json.replace('.json', '.txt')}")


def run_oha(args, cmd, duration, out_json, usage=None):
    """One oha run (its JSON summary on stdout), with the same process control as wrk; usage: as run_load's."""
    with open(out_json, "w") as out, open(out_json.replace(".json", ".err"), "w") as err:
        code = run_load(args, "oha", cmd, duration + 120, out, err, usage=usage)
    if code != 0:
        raise BenchError(f"oha exited {code}; see {out_json.replace('.json', '.err')}")
    return openload.summary(out_json)


def ensure_wrk():
    path = shutil.which("wrk")
    if path:
        return path
    # dpkg needs the sbin folders on PATH (ldconfig, start-stop-daemon), which a CI PATH may lack.
    os.environ["PATH"] = "/usr/local/sbin:/usr/sbin:/sbin:" + os.environ.get("PATH", "")
    if shutil.which("apt-get") and os.geteuid() == 0:
        log("wrk not found; installing the Debian package 'wrk' (apt-get)")
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], timeout=300, check=False,
                       stdout=sys.stderr, stderr=sys.stderr)
        path = shutil.which("wrk")
        if not path:
            subprocess.run(["apt-get", "update", "-q"], timeout=300, check=False, stdout=sys.stderr,
                           stderr=sys.stderr)
            subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], timeout=300, check=False,
                           stdout=sys.stderr, stderr=sys.stderr)
            path = shutil.which("wrk")
    if not path:
        raise BenchError("wrk is needed: install it (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk)")
    return path


def steady_rate(res, conns, r_ms, dur_s):
    """Completions per wall-clock second once the point is in its steady state.

    The ramp ends when as many responses have completed as there are connections (every connection has had one
    answer) and not before R + 1 s. A fair scheduler (virtual threads) shares the CPU among all C requests, so
    under overload the first answers arrive only after about C / throughput; a FIFO pool answers from the start.
    Counting from the first answers would credit FIFO with a ramp that processor sharing does not have. The last
    second is cut too (wrk stops mid-second). Returns (rate or "", window seconds, ramp seconds)."""
    per_second = {int(t): n for t, n in res.get("per_second", {}).items()}
    start = int(res.get("started") or 0)
    skip = int(-(-r_ms // 1000)) + 1
    done = 0
    for t in sorted(per_second):
        done += per_second[t]
        if done >= conns:
            skip = max(skip, t - start + 1)
            break
    else:
        skip = max(skip, int(dur_s))
    window = range(start + skip, start + int(dur_s) - 1)
    if len(window) < 5:
        return "", len(window), skip
    # Throughput counts answers below 400 only: a point that fails fast must not look fast (the ramp above counts
    # every answer, since a failed one also tells that its connection was served).
    ok = {int(t): n for t, n in res.get("ok_per_second", res.get("per_second", {})).items()}
    return round(sum(ok.get(t, 0) for t in window) / len(window), 1), len(window), skip
