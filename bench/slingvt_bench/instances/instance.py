"""One Sling instance of the benchmark: its lab configuration, start on a free port, readiness, the check that
its request threads are what the configuration says, and its stop by PID; the launch arguments ./sling-vt passes."""
import json
import os
import re
import shutil
import subprocess
import time

from slingvt_bench.core.common import BenchError, RUNNING, affinity_fn, log, port_in_use, stop_pid
from slingvt_bench.core.httpget import http_get
from slingvt_bench.core.setups import CONFIGS, HTTP_PID, READINESS_HOLD_S, SEED_TIMEOUT, STARTUP_TIMEOUT, jvm_opts_for
from slingvt_bench.instances import confine, pgstore

# The benchmark's instances are lab instances on 127.0.0.1 that nobody else reaches: their demo servlets take the
# full parameter ranges from anonymous requests, so that no measured request pays a login (basic authentication
# logs into Oak on every request; docs/decisions/0004-anonymous-limits-on-demo-servlets.md has the measured cost). The default (anonymous: light work only,
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
            a.pg.write_secret(self.home)
        self.write_config()
        own = jvm_opts_for(a.jvm_opts, CONFIGS[self.name].get("gc"), java_feature(a.java_home),
                           CONFIGS[self.name].get("heap"))
        if own != a.jvm_opts:
            self.info["jvm_opts"] = own
        jvm_opts = (f"-Dsling.home={self.home} -Dlogback.configurationFile={a.feature_dir}/conf/logback.xml "
                    f"{own}")
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
        preexec = affinity_fn(a.server_cpus)
        if getattr(a, "confine", None):
            self.cgroup = confine.CGroup(self.name, a.confine["cpus"], a.confine["quota"])
            join, pin = self.cgroup.join_fn(), preexec
            preexec = lambda: (join(), pin())  # noqa: E731 (the cgroup first, so the JVM starts inside it)
        # The launcher script execs the JVM, so the PID is the JVM's.
        p = subprocess.Popen(cmd, cwd=self.home, env=env, stdout=self.stdout, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=preexec)
        self.proc, self.pid = p, p.pid
        RUNNING[p.pid] = f"Sling {self.name}"
        log(f"{self.name}: started PID {self.pid} on {self.url}, home {self.home}")
        deadline = t0 + STARTUP_TIMEOUT
        green_since = None
        while True:
            self.check_alive()
            # Same readiness as ./sling-vt run and the E2E tests: the systemready health checks first (an earlier
            # Sling request logs "Cannot find servlet" errors), green for READINESS_HOLD_S (the service user
            # mapper restarts the servlet resolver just after its validator binds), then an Oak-backed GET.
            green = http_get(self.url + "/system/health/systemready.json", timeout=5)[0] == 200
            green_since = (green_since or time.time()) if green else None
            if (green_since is not None and time.time() - green_since >= READINESS_HOLD_S
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
                        # The status says the cap as text ("0", "150", "auto"); a configuration may hold a number.
                        if k in want and k in status and str(status[k]) != str(want[k]):
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
        if getattr(self, "cgroup", None):
            self.cgroup.remove()
        if getattr(self, "stdout", None):
            self.stdout.close()

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


def java_feature(java_home):
    """The JDK's feature release (21, 25, ...) from its release file, or None."""
    try:
        with open(os.path.join(java_home, "release")) as f:
            m = re.search(r'JAVA_VERSION="(\d+)', f.read())
        return int(m.group(1)) if m else None
    except OSError:
        return None


def check_launch_args(args, command):
    if not args.java_home or not os.access(os.path.join(args.java_home, "bin", "java"), os.X_OK):
        raise BenchError(f"no JDK: run this through ./sling-vt {command}, which finds a JDK >= 21")
    args.jcmd = os.path.join(args.java_home, "bin", "jcmd")
    for f in (feature_file(args), args.launcher_bin):
        if not f or not os.path.exists(f):
            raise BenchError(f"the assembled feature is missing ({f}); run ./sling-vt build")


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
