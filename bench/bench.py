#!/usr/bin/env python3
"""./sling-vt bench: throughput/latency/resource benchmark of the assembled Sling instance.

Started by `./sling-vt bench` (which finds the JDK, builds if needed and passes --root/--launcher/--feature-*).
For every configuration it starts a fresh instance (own home under the output folder, a free port on 127.0.0.1),
waits for the demo content, verifies the request threads really are what the configuration says, warms up,
drives each (workload, concurrency) point with wrk, samples the server process from /proc and jcmd, and stops
the instance by PID. Results: results.csv, results.md, *.svg, meta.json and the instance logs in the output folder.

Python 3 standard library only.
"""
import argparse
import datetime
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import openload  # noqa: E402
import pgstore  # noqa: E402
from httpget import http_get  # noqa: E402
import report  # noqa: E402

HTTP_PID = "io.github.slingvt.http.VirtualThreads"
FELIX_HTTP_PID = "org.apache.felix.http"
CLK_TCK = os.sysconf("SC_CLK_TCK")

# name -> (description, files to put into <home>/launcher/install before start, expected request thread)
# 'virtual' in the expectation is what /bin/vt/work.json reports as thread.virtual; 'ours' says whether our
# HTTP bundle must be installed on Felix's Jetty (True) or must have left it alone (False).
CONFIGS = {
    "kernel-200": dict(
        desc="Sling VT kernel mode, Jetty QueuedThreadPool max 200 (Jetty's default)",
        cfg={HTTP_PID: {"mode": "kernel", "kernelMaxThreads": 200}}, virtual=False, ours=True),
    "kernel-1000": dict(
        desc="Sling VT kernel mode, QueuedThreadPool max 1000 (fibers-server's baseline)",
        cfg={HTTP_PID: {"mode": "kernel", "kernelMaxThreads": 1000}}, virtual=False, ours=True),
    "felix-virtual": dict(
        desc="Felix jetty12's own org.apache.felix.http.jetty.virtualthreads.enable=true; Sling VT leaves Jetty alone",
        cfg={FELIX_HTTP_PID: "FELIX"}, virtual=True, ours=False),
    "vt-unbounded": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=0 (unbounded)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True),
    "vt-unbounded-twin": dict(
        desc="a second vt-unbounded instance, identical: the A/A control that shows this machine's run-to-run noise "
             "(not in the full run; use it with --configs and --rounds)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True),
    "vt-no-detector": dict(
        desc="vt-unbounded with the JFR pinning detector switched off (io.github.slingvt.http.PinningDetector "
             "enabled=false): the detector's cost is vt-no-detector : vt-unbounded",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0},
             "io.github.slingvt.http.PinningDetector": {"enabled": False}}, virtual=True, ours=True,
        # A cost would show where the CPU is the limit; the waiting workloads would only add run time.
        workloads=["R10ms", "repo200"]),
    "vt-bounded": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=10000 (above every tested concurrency)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 10000, "maxQueuedRequests": 10000}},
        virtual=True, ours=True),
    "vt-cap-100": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=100 with a queue that holds every client "
             "(maxQueuedRequests=10000, queueTimeout=60 s): a cap sized against a JDBC pool (--store postgres)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 100, "maxQueuedRequests": 10000,
                        "queueTimeout": 60000}},
        virtual=True, ours=True),
}

# The benchmark's instances are lab instances on 127.0.0.1 that nobody else reaches: their demo servlets take the
# full parameter ranges from anonymous requests, so that no measured request pays a login (basic authentication
# logs into Oak on every request; docs/NOTES.md has the measured cost). The default (anonymous: light work only,
# heavy work a 403) is what every other instance runs with.
LAB_DEMO_PID = "io.github.slingvt.demo.DemoServlets"
LAB_DEMO_CONFIG = {"anonymousMaxReads": 100000, "anonymousMaxIdleDelay": 60000, "anonymousMaxFileLength": 104857600,
                   "anonymousMaxCpuIterations": 1000000, "anonymousMaxFanout": 100}


# The same for the demo page of the starter feature (demo-app): its full ranges for anonymous requests.
LAB_PAGE_PID = "io.github.slingvt.demoapp.DemoPage"
LAB_PAGE_CONFIG = {"anonymousMaxReads": 10000, "anonymousMaxDelay": 10000}


def write_lab_demo_config(install):
    for pid, props in ((LAB_DEMO_PID, LAB_DEMO_CONFIG), (LAB_PAGE_PID, LAB_PAGE_CONFIG)):
        with open(os.path.join(install, f"{pid}.cfg.json"), "w") as f:
            json.dump(props, f, indent=2)
            f.write("\n")


# Workloads on /bin/vt/work.json (or on their "path"). R is the nominal latency; idleDelay is ~99.5 % of it, the rest repository
# reads and SHA-256 rounds (plus Sling's own request handling). The measured p50 is reported next to R.
WORKLOADS = {
    "R10ms": dict(r_ms=10, params="reads=1&cpuIterations=5&idleDelay=10",
                  desc="R = 10 ms: idleDelay 10 ms, 1 read, 5 SHA-256 rounds"),
    "R100ms": dict(r_ms=100, params="reads=5&cpuIterations=50&idleDelay=99",
                   desc="R = 100 ms: idleDelay 99 ms, 5 reads, 50 SHA-256 rounds"),
    "R1s": dict(r_ms=1000, params="reads=20&cpuIterations=200&idleDelay=995",
                desc="R = 1 s: idleDelay 995 ms, 20 reads, 200 SHA-256 rounds"),
    "repo200": dict(r_ms=100, params="reads=200&cpuIterations=50&idleDelay=90",
                    desc="repository-heavy: 200 reads, 50 SHA-256 rounds, idleDelay 90 ms (R about 100 ms)"),
}
# Measured at C = 4,000 only (EXTRA_POINTS): what 4,000 parked requests cost in OS threads and RSS.
# On the PostgreSQL store (--store postgres) only: reads that wait for the database instead of for idleDelay.
WORKLOADS["cold50"] = dict(r_ms=0, params="reads=50&cpuIterations=50", store="postgres",
                            desc="cold reads: 50 reads of the demo tree with Oak's caches too small to hold it (16 MB, "
                                 "no persistent node cache), so most reads are PostgreSQL round trips; no idleDelay, "
                                 "no nominal R")
WORKLOADS["park10s"] = dict(r_ms=10000, params="idleDelay=10000",
                            desc="parked: idleDelay 10 s, no reads (measured at C = 4,000 only: OS threads and RSS)")
# On the starter feature only (the default): the demo application's HTL page, whose Sling Model reads 20 item nodes
# and waits 100 ms on its downstream call; what a Sling page costs beside a JSON servlet.
WORKLOADS["page"] = dict(r_ms=100, path="/content/vt-demo/page.html", params="reads=20&delay=100", feature="starter",
                         desc="rendered page: HTL component + Sling Model, 20 item reads, 100 ms downstream wait")
WORK_PATH = "/bin/vt/work.json"
EXTRA_POINTS = [("park10s", 4000)]
WARMUP_PARAMS = "reads=20&cpuIterations=50&idleDelay=5"

# The full run includes the A/A twin: a ratio within the twins' spread at that point is "undecided" (report.py).
FULL = dict(configs=[c for c in CONFIGS if c != "vt-cap-100"], workloads=["R10ms", "R100ms", "R1s", "repo200", "page"],
            concurrency=[100, 1000, 4000, 8000], extra=EXTRA_POINTS, warmup=30, duration=20, pause=1)
QUICK = dict(configs=["kernel-200", "vt-unbounded"], workloads=["R100ms", "R1s"],
             concurrency=[100, 1000], extra=[], warmup=15, duration=20, pause=2)
# --store postgres (issue #12): the four request-thread configurations on the cold-read workload and R = 100 ms, plus
# the A/A twin that says which differences are this machine's noise.
FULL_POSTGRES = dict(configs=["kernel-200", "kernel-1000", "vt-unbounded", "vt-unbounded-twin", "vt-bounded"],
                     workloads=["cold50", "R100ms"], concurrency=[100, 1000, 4000], extra=[], warmup=30, duration=20,
                     pause=1)
QUICK_POSTGRES = dict(configs=["kernel-200", "vt-unbounded"], workloads=["cold50"], concurrency=[100, 1000],
                      extra=[], warmup=15, duration=20, pause=2)
DEFAULT_JVM_OPTS = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseG1GC"
MAX_RAMP_S = 40  # longest extension of a point for its ramp (C / throughput of the previous point)
GC_TAIL_S = 4  # seconds the load runs on after the measured window, for the full GC of the heap figure
QUIET_CPU = 0.25  # cores: below this the instance counts as drained

STARTUP_TIMEOUT = 300
SEED_TIMEOUT = 180
DRAIN_TIMEOUT = 120
STOP_TIMEOUT = 30


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


# ---------------------------------------------------------------------------------------------- processes
RUNNING = {}  # pid -> description; everything we started, stopped by PID on exit


def stop_pid(pid, what, timeout=STOP_TIMEOUT):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        RUNNING.pop(pid, None)
        return
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid if not pid_alive(pid) else 0
        if done == pid:
            break
        time.sleep(0.2)
    else:
        log(f"{what} (PID {pid}) did not stop within {timeout} s; killing it")
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    RUNNING.pop(pid, None)


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie child counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop_all():
    for pid, what in list(RUNNING.items()):
        log(f"stopping {what} (PID {pid})")
        stop_pid(pid, what)


def on_signal(signum, _frame):
    log(f"signal {signum}: stopping what the benchmark started")
    stop_all()
    sys.exit(130)


def affinity_fn(cpus):
    def fn():
        if cpus:
            os.sched_setaffinity(0, cpus)
    return fn


# ---------------------------------------------------------------------------------------------- HTTP helpers
def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_in_use(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


# ---------------------------------------------------------------------------------------------- /proc sampling
def proc_threads_rss(pid):
    threads = rss = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    threads = int(line.split()[1])
                elif line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) / 1024.0  # MiB
    except OSError:
        pass
    return threads, rss


def proc_cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
    except OSError:
        return None


def heap_after_gc(jcmd, pid):
    """Full GC, then the used heap in MiB (G1: 'garbage-first heap total ..K, used ..K')."""
    try:
        subprocess.run([jcmd, str(pid), "GC.run"], capture_output=True, timeout=30)
        out = subprocess.run([jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=30).stdout
    except subprocess.TimeoutExpired:
        return None
    # JDK 25: "garbage-first heap   total reserved 6172672K, committed 180224K, used 49691K [...]"
    m = re.search(r"heap\s+total[^\n]*?used\s+(\d+)K", out)
    return int(m.group(1)) / 1024.0 if m else None


# ---------------------------------------------------------------------------------------------- instance
class Instance:
    def __init__(self, args, name, home, port):
        self.args, self.name, self.home, self.port = args, name, home, port
        self.pid = None
        self.url = f"http://127.0.0.1:{port}"
        self.info = {"config": name, "port": port, "home": home}

    def write_config(self):
        install = os.path.join(self.home, "launcher", "install")
        os.makedirs(install, exist_ok=True)
        os.makedirs(os.path.join(self.home, "logs"), exist_ok=True)
        write_lab_demo_config(install)
        if getattr(self.args, "pool_max", None):
            pgstore.write_pool_config(install, self.info["jdbc_url"], self.args.pool_max, self.args.pool_wait_ms)
        for pid, props in CONFIGS[self.name]["cfg"].items():
            if props == "FELIX":
                # Overrides the feature's org.apache.felix.http configuration (which sets the flag false); the
                # other properties repeat the feature's, since a configuration replaces all properties at once.
                props = {"org.apache.felix.http.host": "127.0.0.1",
                         "org.osgi.service.http.port": self.port,
                         "org.apache.felix.jetty.relativeredirectallowed": False,
                         "org.apache.felix.http.jetty.virtualthreads.enable": True}
            with open(os.path.join(install, f"{pid}.cfg.json"), "w") as f:
                json.dump(props, f, indent=2)
                f.write("\n")

    def start(self):
        if port_in_use(self.port):
            raise BenchError(f"port {self.port} on 127.0.0.1 is busy")
        a = self.args
        if getattr(a, "store", "segment") == "postgres":
            try:
                self.info["jdbc_url"] = a.pg.create_database(self.name)
            except RuntimeError as e:
                raise BenchError(f"{self.name}: no database: {e}")
        self.write_config()
        jvm_opts = (f"-Dsling.home={self.home} -Dlogback.configurationFile={a.feature_dir}/conf/logback.xml "
                    f"{a.jvm_opts}")
        feature = feature_file(a)
        cmd = [a.launcher_bin, "-f", feature, "-u", f"file://{a.feature_dir}/artifacts",
               "-p", f"{self.home}/launcher", "-c", f"{self.home}/cache",
               "-V", f"sling.home={self.home}", "-V", f"http.port={self.port}", "-V", "http.host=127.0.0.1",
               "-D", f"sling.fileinstall.dir={self.home}/launcher/install"]
        if getattr(a, "store", "segment") == "postgres":
            for name, value in dict(pgstore.COLD_VARS, **{"oak.jdbc.url": self.info["jdbc_url"]}).items():
                cmd += ["-V", f"{name}={value}"]
        env = dict(os.environ, JAVA_OPTS=jvm_opts, JAVA_HOME=a.java_home)
        self.stdout = open(os.path.join(self.home, "logs", "stdout.log"), "ab")
        t0 = time.time()
        # The launcher script execs the JVM, so the PID is the JVM's.
        p = subprocess.Popen(cmd, cwd=self.home, env=env, stdout=self.stdout, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             preexec_fn=affinity_fn(a.server_cpus))
        self.proc, self.pid = p, p.pid
        RUNNING[p.pid] = f"Sling {self.name}"
        log(f"{self.name}: started PID {self.pid} on {self.url}, home {self.home}")
        deadline = t0 + STARTUP_TIMEOUT
        while True:
            self.check_alive()
            # Same readiness as ./sling-vt run and the E2E tests: the systemready health checks first (an earlier
            # Sling request logs "Cannot find servlet" errors), then an Oak-backed GET.
            if (http_get(self.url + "/system/health/systemready.json", timeout=5)[0] == 200
                    and http_get(self.url + "/.json", timeout=5)[0] == 200):
                break
            if time.time() > deadline:
                raise BenchError(f"{self.name}: no answer from {self.url}/.json within {STARTUP_TIMEOUT} s")
            time.sleep(0.5)
        self.info["startup_s"] = round(time.time() - t0, 1)
        deadline = time.time() + SEED_TIMEOUT
        while True:
            self.check_alive()
            code, body = http_get(self.url + "/bin/vt/status.json", timeout=5)
            if code == 200 and json.loads(body or b"{}").get("seeded") is True:
                break
            if time.time() > deadline:
                raise BenchError(f"{self.name}: demo content not seeded within {SEED_TIMEOUT} s: {body[:300]!r}")
            time.sleep(0.5)
        self.info["seeded_s"] = round(time.time() - t0, 1)
        self.verify()
        self.info["ready_s"] = round(time.time() - t0, 1)
        log(f"{self.name}: answering after {self.info['startup_s']} s, seeded after {self.info['seeded_s']} s, "
            f"verified after {self.info['ready_s']} s")

    def check_alive(self):
        if self.proc.poll() is not None:
            RUNNING.pop(self.pid, None)
            raise BenchError(f"{self.name}: Sling exited (code {self.proc.returncode}); "
                             f"see {self.home}/logs/stdout.log and error.log")

    def error_log(self):
        try:
            with open(os.path.join(self.home, "logs", "error.log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def verify(self):
        """The request threads must be what the configuration says: probe thread, our status, Felix's log."""
        spec = CONFIGS[self.name]
        deadline = time.time() + 60
        last = None
        while time.time() < deadline:
            code, body = http_get(self.url + "/bin/vt/work.json", timeout=10)
            status = None
            s_code, s_body = http_get(self.url + "/system/console/status-slingvt-http.json", timeout=10,
                                      auth="admin:admin")
            if s_code == 200:
                try:
                    status = json.loads(s_body)
                except ValueError:
                    status = None
            log_text = self.error_log()
            # Felix starts Jetty with the feature's configuration, then restarts it when the install folder's
            # configuration arrives: the last line counts, and so does the last word of our bundle after it.
            lines = log_text.splitlines()
            felix_idx = max((i for i, l in enumerate(lines) if "Started Jetty" in l), default=-1)
            felix_line = lines[felix_idx] if felix_idx >= 0 else ""
            ours = [l for l in lines if "Sling VT request threading installed" in l
                    or "Sling VT leaves this server alone" in l]
            m = re.search(r"virtualThreadsEnabled=(\w+)", felix_line)
            felix_vt = m.group(1) if m else None
            ours_installed = bool(ours) and "Sling VT request threading installed" in ours[-1]
            ours_left_alone = bool(ours) and "Sling VT leaves this server alone" in ours[-1]
            thread = json.loads(body).get("thread", {}) if code == 200 else {}
            last = dict(probe_code=code, thread=thread, felix_started_jetty=felix_line.split("Started Jetty", 1)[-1][:300],
                        felix_virtual_threads_enabled=felix_vt, ours_installed=ours_installed,
                        ours_left_alone=ours_left_alone, status=status)
            ok = code == 200 and thread.get("virtual") is spec["virtual"]
            if spec["ours"]:
                want = spec["cfg"][HTTP_PID]
                ok = ok and ours_installed and not ours_left_alone and felix_vt == "false" and status is not None \
                    and status.get("mode") == want["mode"]
                if ok and status is not None:
                    for k in ("kernelMaxThreads", "maxConcurrentRequests"):
                        if k in want and k in status and status[k] != want[k]:
                            ok = False
            else:
                ok = ok and felix_vt == "true" and ours_left_alone
            if ok and getattr(self.args, "store", "segment") == "postgres":
                repo = pgstore.repository_status(self.url) or {}
                last["repository"] = repo
                ok = repo.get("store") == "postgres" and "jdbcPool" in repo and (
                    not self.args.pool_max or repo["jdbcPool"].get("maxActive") == self.args.pool_max)
            if ok:
                self.info["verified"] = last
                return
            time.sleep(1)
        raise BenchError(f"{self.name}: request threads are not as configured after 60 s: {json.dumps(last)[:1500]}")

    def stop(self):
        if self.pid and self.pid in RUNNING:
            t0 = time.time()
            stop_pid(self.pid, f"Sling {self.name}")
            self.info["stop_s"] = round(time.time() - t0, 1)
            log(f"{self.name}: stopped PID {self.pid} in {self.info['stop_s']} s")
        if getattr(self, "stdout", None):
            self.stdout.close()


# ---------------------------------------------------------------------------------------------- load
def run_load(args, name, cmd, limit_s, stdout, stderr, env=None, sampler=None):
    """Runs a load generator in a session of its own on the load CPUs, registered for Ctrl-C, stopped by PID
    after limit_s at the latest; returns its exit code (None if it had to be stopped)."""
    p = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=affinity_fn(args.load_cpus))
    RUNNING[p.pid] = name
    try:
        if sampler:
            sampler(p)
        p.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        log(f"{name} (PID {p.pid}) overran {limit_s} s; stopping it")
    finally:
        if p.poll() is None:
            stop_pid(p.pid, name, timeout=10)
        RUNNING.pop(p.pid, None)
    return p.returncode


def run_wrk(args, url, conns, duration, out_json, timeout_s, sampler=None):
    threads = max(2, min(args.wrk_threads, conns))
    cmd = [args.wrk, "-t", str(threads), "-c", str(conns), "-d", f"{duration}s", "--timeout", f"{timeout_s}s",
           "-s", os.path.join(HERE, "wrk-json.lua"), url]
    env = dict(os.environ, WRK_JSON_OUT=out_json)
    if os.path.exists(out_json):
        os.remove(out_json)
    with open(out_json.replace(".json", ".txt"), "w") as txt:
        run_load(args, "wrk", cmd, duration + 90, txt, subprocess.STDOUT, env, sampler)
    try:
        with open(out_json) as f:
            return json.load(f)
    except (OSError, ValueError):
        raise BenchError(f"wrk wrote no summary; see {out_json.replace('.json', '.txt')}")


def run_oha(args, cmd, duration, out_json):
    """One oha run (its JSON summary on stdout), with the same process control as wrk."""
    with open(out_json, "w") as out, open(out_json.replace(".json", ".err"), "w") as err:
        code = run_load(args, "oha", cmd, duration + 120, out, err)
    if code != 0:
        raise BenchError(f"oha exited {code}; see {out_json.replace('.json', '.err')}")
    return openload.summary(out_json)


def open_model(args, live, plan, rows, pdir, out):
    """After the closed-model grid: each configuration at fixed arrival rates (openload.FRACTIONS of its own
    capacity on the workload), configurations interleaved per rate, each followed by the drain."""
    path = os.path.join(out, "openmodel.csv")
    done = []
    # --quick: the 90 % rate only, 10 s each, so that the quick run stays under 10 minutes.
    fractions, duration = ((0.9,), 10) if args.quick else (openload.FRACTIONS, openload.DURATION_S)
    for wname in plan["workloads"]:
        w = WORKLOADS[wname]
        for fraction in fractions:
            for inst in live:
                if "error" in inst.info or wname not in CONFIGS[inst.name].get("workloads", [wname]):
                    continue
                cap = openload.capacity(rows, inst.name, wname)
                if not cap:
                    continue
                rate = cap * fraction
                conns = openload.connections(rate, w["r_ms"])
                url = f"{inst.url}{w.get('path', WORK_PATH)}?{w['params']}"
                out_json = os.path.join(pdir, f"oha-{inst.name}-{wname}-{int(fraction * 100)}.json")
                try:
                    inst.check_alive()
                    summary = run_oha(args, openload.command(args.oha, url, rate, conns, duration), duration,
                                      out_json)
                except (openload.OpenLoadError, BenchError) as e:
                    log(f"{inst.name}: open model {wname} at {rate:.0f}/s: {e}")
                    continue
                r = openload.row(inst.name, wname, fraction, cap, rate, conns, duration, summary)
                done.append(r)
                log(f"{inst.name}: open model {wname} at {r['target_rps']}/s ({int(fraction * 100)} % of "
                    f"{r['capacity_rps']}): {r['achieved_rps']}/s, p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
                    f"p99.9 {r['p999_ms']} ms, errors {r['errors']}, non-2xx {r['non2xx']}")
                openload.write_csv(path, done)
                wait_quiet(inst.pid, DRAIN_TIMEOUT)
                http_get(inst.url + WORK_PATH, timeout=DRAIN_TIMEOUT)
                time.sleep(plan["pause"])


def wait_quiet(pid, timeout):
    """Until the process uses less than QUIET_CPU cores over a second: requests whose clients are gone still run
    to the end (a servlet does not notice a closed connection), and that work must not leak into the next point."""
    deadline = time.time() + timeout
    prev = proc_cpu_seconds(pid)
    while time.time() < deadline and prev is not None:
        time.sleep(1)
        cur = proc_cpu_seconds(pid)
        if cur is None or cur - prev < QUIET_CPU:
            return True
        prev = cur
    return False


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


def point_duration(args, rows, name, wname, conns):
    """The measured seconds plus the expected ramp (C / throughput at the previous C of this configuration)."""
    r_s = -(-WORKLOADS[wname]["r_ms"] // 1000)
    prev = [r for r in rows if r["config"] == name and r["workload"] == wname and r["concurrency"] < conns
            and r.get("rps_steady")]
    ramp = r_s
    if prev:
        best = max(prev, key=lambda r: r["concurrency"])
        ramp = max(ramp, -(-conns // max(1, int(best["rps_steady"]))))
    return args.duration + min(MAX_RAMP_S, ramp)


def measure_point(args, inst, wname, conns, pdir, duration, others=(), rnd=1):
    w = WORKLOADS[wname]
    url = f"{inst.url}{w.get('path', WORK_PATH)}?{w['params']}"
    samples = {"threads": [], "rss": [], "heap": None, "end": None}
    probe = pgstore.PointProbe(args.pg, inst.url) if args.store == "postgres" else None
    if probe:
        probe.begin()
    cpu0 = proc_cpu_seconds(inst.pid)
    others0 = [proc_cpu_seconds(o.pid) for o in others]
    t0 = time.time()

    def end_of_window():
        """The measured window ends: CPU, threads and the database figures are taken here, before the tail."""
        th, rss = proc_threads_rss(inst.pid)
        samples["end"] = dict(t=time.time(), cpu=proc_cpu_seconds(inst.pid), th=th, rss=rss,
                              others=[proc_cpu_seconds(o.pid) for o in others])
        if probe:
            probe.load_done()

    def sampler(p):
        # The load runs GC_TAIL_S longer than the measured window; the full GC for the heap figure happens in that
        # tail (still under the same load, so in-flight requests are live), never inside the measured window.
        end, gc_at = t0 + duration, t0 + duration + 1
        while p.poll() is None:
            now = time.time()
            if now < end:
                th, rss = proc_threads_rss(inst.pid)
                if th:
                    samples["threads"].append(th)
                    samples["rss"].append(rss)
            elif samples["end"] is None:
                end_of_window()
            if samples["heap"] is None and now >= gc_at:
                samples["heap"] = heap_after_gc(args.jcmd, inst.pid) or -1
            time.sleep(0.5)

    timeout_s = args.wrk_timeout
    suffix = f"-r{rnd}" if args.rounds > 1 else ""
    res = run_wrk(args, url, conns, duration + GC_TAIL_S,
                  os.path.join(pdir, f"{inst.name}-{wname}-c{conns}{suffix}.json"), timeout_s, sampler)
    if samples["end"] is None:  # wrk ended before the window did: take what there is now
        end_of_window()
    wall = samples["end"]["t"] - t0
    cpu1 = samples["end"]["cpu"]
    others1 = samples["end"]["others"]
    others_cpu = sum(b - a for a, b in zip(others0, others1) if a is not None and b is not None)
    th_end, rss_end = samples["end"]["th"], samples["end"]["rss"]
    # Drain: the instance must be idle again (CPU), and a light request must get through (kernel pools queue FIFO).
    d0 = time.time()
    quiet = wait_quiet(inst.pid, DRAIN_TIMEOUT)
    code, _ = http_get(inst.url + "/bin/vt/work.json", timeout=DRAIN_TIMEOUT)
    drain = time.time() - d0
    db = probe.end() if probe else {}
    dur_s = min(res["duration_us"] / 1e6, duration)  # the measured window, without the GC tail
    e = res["errors"]
    lat = res["latency_us"]
    steady, window_s, ramp_s = steady_rate(res, conns, w["r_ms"], dur_s)
    row = dict(
        config=inst.name, workload=wname, r_ms=w["r_ms"], concurrency=conns, round=rnd, duration_s=round(dur_s, 1),
        requests=res["requests"],
        rps=round((res["requests"] - e["status"]) / (res["duration_us"] / 1e6), 1) if res["duration_us"] else 0,
        rps_steady=steady, steady_window_s=window_s, ramp_s=ramp_s,
        little_bound_rps=round(conns / (w["r_ms"] / 1000.0), 1) if w["r_ms"] else "",
        p50_ms=round(lat["p50"] / 1000, 1), p99_ms=round(lat["p99"] / 1000, 1),
        mean_ms=round(lat["mean"] / 1000, 1), max_ms=round(lat["max"] / 1000, 1),
        err_connect=e["connect"], err_read=e["read"], err_write=e["write"], err_timeout=e["timeout"],
        socket_errors=e["connect"] + e["read"] + e["write"] + e["timeout"], non2xx=e["status"],
        threads_max=max(samples["threads"]) if samples["threads"] else "",
        threads_end=th_end or "",
        rss_max_mib=round(max(samples["rss"]), 1) if samples["rss"] else "",
        heap_after_gc_mib=round(samples["heap"], 1) if samples["heap"] and samples["heap"] > 0 else "",
        cpu_pct=round(100.0 * (cpu1 - cpu0) / wall, 1) if cpu0 is not None and cpu1 is not None else "",
        others_cpu_pct=round(100.0 * others_cpu / wall, 1) if others else "",
        drain_s=(round(drain, 1) if quiet else f"busy after {DRAIN_TIMEOUT} s") if code == 200 else f"probe {code}",
        **db)
    log(f"{inst.name} {wname} C={conns}{' round ' + str(rnd) if args.rounds > 1 else ''}: {row['rps_steady']} req/s steady ({window_s} s after a {ramp_s} s ramp), "
        f"{row['rps']} over the run (bound {row['little_bound_rps']}), "
        f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms, socket errors {row['socket_errors']}, "
        f"non-2xx {row['non2xx']}, threads {row['threads_max']}, RSS {row['rss_max_mib']} MiB, "
        f"heap {row['heap_after_gc_mib']} MiB, CPU {row['cpu_pct']} % (idle instances {row['others_cpu_pct']} %), "
        f"drain {row['drain_s']} s"
        + (f"; database: {db['db_rt_per_req']} round trips/request, CPU {db['db_cpu_pct']} %, pool active peak "
           f"{db['pool_active_max']}, waiting peak {db['pool_waiting_max']} ({db['pool_samples']} samples)" if db else ""))
    return row


def warmup(args, inst, pdir):
    if args.warmup <= 0:
        return
    t0 = time.time()
    res = run_wrk(args, f"{inst.url}/bin/vt/work.json?{WARMUP_PARAMS}", 100, args.warmup,
                  os.path.join(pdir, f"{inst.name}-warmup.json"), 30)
    http_get(inst.url + "/bin/vt/work.json", timeout=DRAIN_TIMEOUT)
    inst.info["warmup_s"] = round(time.time() - t0, 1)
    inst.info["warmup_requests"] = res["requests"]
    log(f"{inst.name}: warm-up {inst.info['warmup_s']} s, {res['requests']} requests")


# ---------------------------------------------------------------------------------------------- setup
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


def plan_cpus(args):
    """Disjoint CPUs for server and wrk when there are at least 4 (wrk gets a quarter), or with --pin on 2-3.

    On 2 CPUs disjoint pinning leaves the server one core (and the JVM sizes GC, carrier and selector threads for
    one CPU), while wrk needs a fraction of a core at these request rates; so by default both share the CPUs there.
    """
    cpus = sorted(os.sched_getaffinity(0))
    args.server_cpus = args.load_cpus = None
    if len(cpus) < 2:
        return "not pinned (one CPU)"
    if args.no_pin:
        return "not pinned (--no-pin)"
    if len(cpus) < 4 and not args.pin:
        return (f"not pinned ({len(cpus)} CPUs: disjoint pinning would leave the server {len(cpus) - 1}; "
                "--pin forces it)")
    n_load = max(1, len(cpus) // 4)  # the load generator gets a quarter, at least one CPU
    args.load_cpus = set(cpus[-n_load:])
    args.server_cpus = set(cpus[:-n_load])
    return f"server on CPU {sorted(args.server_cpus)}, wrk on CPU {sorted(args.load_cpus)} (taskset-style affinity)"


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1048576
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def snapshot_feature(args, out):
    """Copy the assembled feature (about 35 MB) so that a rebuild during the benchmark cannot change it."""
    dst = os.path.join(out, "feature")
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    for sub in ("artifacts", "conf", "launcher"):
        shutil.copytree(os.path.join(args.feature_dir, sub), os.path.join(dst, sub), symlinks=True)
    for attr in FEATURE_FILE_ARGS:
        if getattr(args, attr, None) and os.path.exists(getattr(args, attr)):
            copy = os.path.join(dst, os.path.basename(getattr(args, attr)))
            shutil.copy2(getattr(args, attr), copy)
            setattr(args, attr, copy)
    rel = os.path.relpath(args.launcher_bin, args.feature_dir)
    args.feature_dir = dst
    args.launcher_bin = os.path.join(dst, rel)


def machine_info(args, fd_limit, pinning):
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return ""
    mem = re.search(r"MemTotal:\s+(\d+)", read("/proc/meminfo"))
    model = re.search(r"model name\s*:\s*(.*)", read("/proc/cpuinfo"))
    jv = subprocess.run([os.path.join(args.java_home, "bin", "java"), "-version"], capture_output=True, text=True)
    wv = subprocess.run([args.wrk, "-v"], capture_output=True, text=True)
    load = read("/proc/loadavg")
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": os.cpu_count(), "cpu_model": model.group(1) if model else "",
        "mem_gib": round(int(mem.group(1)) / 1048576, 1) if mem else None,
        "kernel": " ".join(os.uname()[2:3]) + " " + os.uname()[4],
        "os": (re.search(r'PRETTY_NAME="([^"]*)"', read("/etc/os-release")) or [None, ""])[1],
        "jdk": (jv.stderr.splitlines() or [""])[0] + " / " + ((jv.stderr.splitlines() + ["", ""])[1]),
        "java_home": args.java_home, "jvm_opts": args.jvm_opts,
        "wrk": (wv.stdout + wv.stderr).splitlines()[0] if (wv.stdout + wv.stderr) else "",
        "wrk_threads": args.wrk_threads, "wrk_timeout_s": args.wrk_timeout,
        "fd_limit": fd_limit, "pinning": pinning,
        "somaxconn": read("/proc/sys/net/core/somaxconn"),
        "loadavg_at_start": load,
    }


def prune_instance_home(home):
    """An instance home holds a repository (hundreds of MB) and access logs: keep error/stdout logs and the
    configuration files that were installed, drop the rest."""
    if not os.path.isdir(home):
        return
    install = os.path.join(home, "launcher", "install")
    if os.path.isdir(install):
        shutil.copytree(install, os.path.join(home, "installed-config"), dirs_exist_ok=True)
    for entry in os.listdir(home):
        if entry not in ("logs", "installed-config"):
            path = os.path.join(home, entry)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
    logs = os.path.join(home, "logs")
    for entry in os.listdir(logs) if os.path.isdir(logs) else []:
        if entry.startswith("access."):
            os.remove(os.path.join(logs, entry))


# The assembled features, by (feature, store): the arguments ./sling-vt passes for them.
FEATURE_FILE_ARGS = {"feature_file": ("lean", "segment"), "feature_file_postgres": ("lean", "postgres"),
                     "feature_file_starter": ("starter", "segment"),
                     "feature_file_starter_postgres": ("starter", "postgres")}


def feature_file(args):
    """The feature file of the instances: --feature (lean for overload.py, which has none) on --store."""
    want = (getattr(args, "feature", "lean"), getattr(args, "store", "segment"))
    return next(getattr(args, attr) for attr, key in FEATURE_FILE_ARGS.items() if key == want)


def add_launch_args(ap):
    """What ./sling-vt passes to bench.py and overload.py: where the JDK and the assembled features are."""
    ap.add_argument("--root", required=True)
    ap.add_argument("--java-home", default=os.environ.get("JAVA_HOME", ""))
    ap.add_argument("--feature-dir")
    for attr in FEATURE_FILE_ARGS:
        ap.add_argument("--" + attr.replace("_", "-"))
    ap.add_argument("--launcher-bin")


def check_launch_args(args, command):
    if not args.java_home or not os.access(os.path.join(args.java_home, "bin", "java"), os.X_OK):
        raise BenchError(f"no JDK: run this through ./sling-vt {command}, which finds a JDK >= 21")
    args.jcmd = os.path.join(args.java_home, "bin", "jcmd")
    for f in (feature_file(args), args.launcher_bin):
        if not f or not os.path.exists(f):
            raise BenchError(f"the assembled feature is missing ({f}); run ./sling-vt build")


def main():
    ap = argparse.ArgumentParser(prog="./sling-vt bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="R = 100 ms and 1 s, C = 100 and 1,000, kernel-200 vs vt-unbounded")
    ap.add_argument("--out", help="output folder (default .sling-vt/bench/<timestamp>)")
    ap.add_argument("--configs", help="comma-separated subset of: " + ", ".join(CONFIGS))
    ap.add_argument("--workloads", help="comma-separated subset of: " + ", ".join(WORKLOADS))
    ap.add_argument("--concurrency", help="comma-separated connection counts")
    ap.add_argument("--duration", type=int, help="seconds per measured point")
    ap.add_argument("--warmup", type=int, help="warm-up seconds per configuration")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every point this many times (interleaved); tables show the median and the spread")
    ap.add_argument("--no-pin", action="store_true", help="do not pin server and wrk to disjoint CPUs")
    ap.add_argument("--pin", action="store_true", help="pin server and wrk to disjoint CPUs even on 2-3 CPUs")
    # A fixed, pre-touched heap: RSS then differs by what lives outside the heap (thread stacks above all), not by
    # how far G1 happened to grow the heap, and heap resizing does not add noise to the throughput.
    ap.add_argument("--jvm-opts", default=os.environ.get("SLING_VT_BENCH_JVM_OPTS", DEFAULT_JVM_OPTS),
                    help=f"JVM options of the instances (default: {DEFAULT_JVM_OPTS}, or $SLING_VT_BENCH_JVM_OPTS)")
    ap.add_argument("--wrk-threads", type=int, default=2)
    ap.add_argument("--wrk-timeout", type=int, default=60, help="wrk's per-request timeout in seconds")
    ap.add_argument("--no-build", action="store_true", help="(read by ./sling-vt) use the assembled feature as it is")
    ap.add_argument("--store", choices=["segment", "postgres"], default="segment",
                    help="repository of the instances: segment-tar (default) or Oak's DocumentNodeStore on a "
                         "PostgreSQL that the benchmark starts (one database per configuration, cold Oak caches)")
    ap.add_argument("--feature", choices=["starter", "lean"], default="starter",
                    help="feature of the instances: starter (the default of ./sling-vt run; needed by the page "
                         "workload) or lean (Sling with servlets only, as the runs before 2026-11-24)")
    ap.add_argument("--pool-max", type=int, help="--store postgres: the JDBC pool's maxActive (and maxIdle) instead "
                    "of the feature's 50")
    ap.add_argument("--pool-wait-ms", type=int, default=30000,
                    help="--store postgres with --pool-max: the pool's maxWait in ms (default 30000, the feature's)")
    ap.add_argument("--no-open-model", action="store_true",
                    help="skip the open-model latency (oha at 50 %% and 90 %% of each configuration's capacity)")
    ap.add_argument("--report-only", metavar="DIR", help="regenerate results.md and the SVGs from DIR/results.csv")
    add_launch_args(ap)
    args = ap.parse_args()

    if args.report_only:
        report.write_all(args.report_only)
        return 0

    if args.pool_max is not None and (args.store != "postgres" or args.pool_max < 1 or args.pool_wait_ms < 1):
        raise BenchError("--pool-max N (N >= 1) and --pool-wait-ms M (M >= 1) go with --store postgres")
    if args.store == "postgres":
        plan = dict(QUICK_POSTGRES if args.quick else FULL_POSTGRES)
    else:
        plan = dict(QUICK if args.quick else FULL)
    if args.configs:
        plan["configs"] = args.configs.split(",")
    if args.workloads:
        plan["workloads"] = args.workloads.split(",")
        plan["extra"] = [x for x in EXTRA_POINTS if x[0] in plan["workloads"]]
    extra_names = {x[0] for x in EXTRA_POINTS}
    plan["workloads"] = [w for w in plan["workloads"] if w not in extra_names]
    if args.concurrency:
        plan["concurrency"] = [int(c) for c in args.concurrency.split(",")]
    for k in ("duration", "warmup"):
        if getattr(args, k) is None:
            setattr(args, k, plan[k])
    for c in plan["configs"]:
        if c not in CONFIGS:
            raise BenchError(f"unknown configuration '{c}' (known: {', '.join(CONFIGS)})")
    for w in plan["workloads"] + [x[0] for x in plan["extra"]]:
        if w not in WORKLOADS:
            raise BenchError(f"unknown workload '{w}' (known: {', '.join(WORKLOADS)})")
        if WORKLOADS[w].get("store", args.store) != args.store:
            raise BenchError(f"workload '{w}' needs --store {WORKLOADS[w]['store']}")
        if WORKLOADS[w].get("feature", args.feature) != args.feature:
            if not args.workloads:
                plan["workloads"].remove(w)  # the default plan on --feature lean: without the page
                continue
            raise BenchError(f"workload '{w}' needs --feature {WORKLOADS[w]['feature']}")
    check_launch_args(args, "bench")

    out = os.path.abspath(args.out or os.path.join(args.root, ".sling-vt", "bench",
                                                   time.strftime("%Y%m%d-%H%M%S")))
    os.makedirs(out, exist_ok=True)
    pdir = os.path.join(out, "wrk")
    os.makedirs(pdir, exist_ok=True)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    args.wrk = ensure_wrk()
    if not args.no_open_model:
        try:
            args.oha = openload.ensure_oha(args.root, log)
        except openload.OpenLoadError as e:
            raise BenchError(str(e))
    fd_limit = raise_fd_limit()
    pinning = plan_cpus(args)
    conc = []
    for c in plan["concurrency"]:
        if c + 2000 > fd_limit:
            log(f"skipping C={c}: the file-descriptor limit is {fd_limit} (needs about {c + 2000})")
        else:
            conc.append(c)
    plan["concurrency"] = conc
    plan["extra"] = [x for x in plan["extra"] if x[1] + 2000 <= fd_limit]
    snapshot_feature(args, out)
    args.pg = None
    if args.store == "postgres":
        args.pg = pgstore.Postgres(args.root, log, RUNNING)
        try:
            args.pg.start()
        except (RuntimeError, OSError, ValueError, KeyError) as e:
            args.pg.stop()
            raise BenchError(f"PostgreSQL: {e}")
    meta = dict(machine=machine_info(args, fd_limit, pinning), quick=args.quick, store=args.store,
                feature=args.feature,
                postgres=dict(version=args.pg.version, port=args.pg.port, oak_vars=pgstore.COLD_VARS,
                              pool_max_active=args.pool_max or 50,
                              pool_max_wait_ms=args.pool_wait_ms if args.pool_max else 30000)
                if args.pg else None,
                plan=dict(plan, duration=args.duration, warmup=args.warmup, rounds=args.rounds, gc_tail_s=GC_TAIL_S),
                configs={c: CONFIGS[c]["desc"] for c in plan["configs"]},
                workloads={w: WORKLOADS[w] for w in plan["workloads"] + [x[0] for x in plan["extra"]]}, instances=[])
    grid = [(w, c) for w in plan["workloads"] for c in conc] + list(plan["extra"])
    if args.rounds < 1:
        raise BenchError("--rounds must be 1 or more")
    points = args.rounds * sum(1 for n in plan["configs"] for w, _ in grid if w in CONFIGS[n].get("workloads", [w]))
    est = len(plan["configs"]) * (40 + args.warmup + 10) + points * (args.duration + 10)
    log(f"output {out}; {pinning}; fd limit {fd_limit}; {len(plan['configs'])} configurations, "
        f"{len(grid)} points, {points} measurements; estimated {est // 60} min {est % 60} s")

    rows = []
    started = time.time()
    csv_path = os.path.join(out, "results.csv")
    live = []
    try:
        # Every configuration runs at the same time and the points are measured in turn (the order rotates from
        # point to point): a drift of the machine (other tenants, heat) then hits every configuration alike
        # instead of whichever came last. Idle instances cost ~1-2 % of a core each (recorded as others_cpu_pct).
        for name in plan["configs"]:
            home = os.path.join(out, "instances", name)
            if os.path.exists(home):
                shutil.rmtree(home)
            inst = Instance(args, name, home, free_port())
            meta["instances"].append(inst.info)
            try:
                inst.start()
                warmup(args, inst, pdir)
                live.append(inst)
            except BenchError as e:
                log(f"{name}: {e}")
                inst.info["error"] = str(e)
                inst.stop()
        rounds = [(r, i, wc) for r in range(args.rounds) for i, wc in enumerate(grid)]
        for rnd, i, (wname, c) in rounds:
            k = (i + rnd) % len(live) if live else 0
            for inst in live[k:] + live[:k]:
                if "error" in inst.info or wname not in CONFIGS[inst.name].get("workloads", [wname]):
                    continue
                try:
                    inst.check_alive()
                    duration = point_duration(args, rows, inst.name, wname, c)
                    others = [o for o in live if o is not inst and "error" not in o.info]
                    row = measure_point(args, inst, wname, c, pdir, duration, others, rnd + 1)
                    rows.append(row)
                except BenchError as e:
                    log(f"{inst.name}: {e}")
                    inst.info["error"] = str(e)
                report.write_csv(csv_path, rows)
                meta["elapsed_s"] = round(time.time() - started)
                with open(os.path.join(out, "meta.json"), "w") as f:
                    json.dump(meta, f, indent=2)
                time.sleep(plan["pause"])
        if not args.no_open_model:
            open_model(args, live, plan, rows, pdir, out)
    finally:
        for inst in live:
            inst.stop()
        if args.pg:
            args.pg.stop()
        stop_all()
    meta["machine"]["loadavg_at_end"] = open("/proc/loadavg").read().strip()
    meta["elapsed_s"] = round(time.time() - started)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
    report.write_csv(csv_path, rows)
    report.write_all(out)
    for name in plan["configs"]:
        prune_instance_home(os.path.join(out, "instances", name))
    shutil.rmtree(os.path.join(out, "feature"), ignore_errors=True)
    log(f"done in {meta['elapsed_s']} s: {out}/results.md, results.csv, *.svg")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        stop_all()
        print(f"sling-vt bench: {e}", file=sys.stderr)
        sys.exit(1)
