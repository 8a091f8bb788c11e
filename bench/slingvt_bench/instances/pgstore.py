"""`./sling-vt bench --store postgres`: the PostgreSQL side of the benchmark. Stdlib only.

One PostgreSQL server for the whole run, started through `./sling-vt postgres start` in a temporary folder (the
server runs as the user postgres when the benchmark runs as root, and that user must reach the folder) on a free
port, and one database per configuration: every instance is its own one-node Oak cluster, so that no instance
reads another's writes. The server is stopped through `./sling-vt postgres stop` (and by PID if that fails) and
its folder deleted at the end.

Per point it measures what only the database and the instances' own counters can tell:
- the database's CPU (the postmaster and all its backends, including backends that exited during the point);
- Oak's database round trips (`dbRoundTrips` of the console status `slingvt-repository`, counted by the
  bundle jdbc-round-trips) divided by the requests the instance completed over the same span;
- the JDBC pool (tomcat-jdbc behind the Sling data source): peak borrowed connections and peak threads waiting
  for one, sampled once a second while the load runs.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

from slingvt_bench.core.httpget import get_json
from slingvt_bench.instances.netdelay import Toxiproxy

CLK_TCK = os.sysconf("SC_CLK_TCK")
ADMIN = "admin:admin"
REPOSITORY_STATUS = "/system/console/status-slingvt-repository.json"
HTTP_STATUS = "/system/console/status-slingvt-http.json"

# A repository whose reads wait for PostgreSQL: a 16 MB Oak cache and no persistent cache for nodes and children,
# so that most of the demo tree's 10,000 leaves are read from the database (PostgresStoreE2EIT measured about
# 0.8 round trips per read with these settings).
COLD_VARS = {"oak.cache.mb": "16", "oak.persistentCache": "cache,-nodes,-children"}


DATASOURCE_PID = "org.apache.sling.datasource.DataSourceFactory~oak"


def write_pool_config(install, jdbc_url, max_active, max_wait_ms):
    """The feature's data source configuration with another pool size and wait (--pool-max, --pool-wait-ms). Sling's
    installer applies it over the feature's; a configuration replaces all properties, so the others are repeated."""
    props = {"datasource.name": "oak-pool", "driverClassName": "org.postgresql.Driver", "url": jdbc_url,
             "username": "oak", "password": "$[secret:oak-db-password]", "maxActive": max_active, "maxIdle": max_active, "minIdle": 2,
             "maxWait": max_wait_ms, "testOnBorrow": True, "validationQuery": "SELECT 1"}
    with open(os.path.join(install, DATASOURCE_PID + ".cfg.json"), "w") as f:
        json.dump(props, f, indent=2)
        f.write("\n")


def repository_status(base_url, timeout=5):
    return get_json(base_url + REPOSITORY_STATUS, timeout, auth=ADMIN)


def completed_requests(base_url, timeout=30):
    s = get_json(base_url + HTTP_STATUS, timeout, auth=ADMIN)
    return None if s is None else s.get("completed")


def _cpu_of(pid):
    """utime+stime and the waited-for children's cutime+cstime of one process, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0, None
    return (int(fields[11]) + int(fields[12])) / CLK_TCK, (int(fields[13]) + int(fields[14])) / CLK_TCK, int(fields[1])


class Postgres:
    """The benchmark's PostgreSQL server: start, one database per configuration, CPU, stop."""

    def __init__(self, root, log, running, latency_ms=None):
        self.root, self.log, self.running = root, log, running
        self.dir = None
        self.pid = self.port = None
        # --latency: Oak reaches the database through toxiproxy, MS ms each way (netdelay.py).
        self.latency_ms = latency_ms
        self.proxy = None

    def sling_vt(self, *args, timeout=600):
        return subprocess.run([os.path.join(self.root, "sling-vt"), "postgres", *args, "--dir", self.dir],
                              capture_output=True, text=True, timeout=timeout)

    def start(self):
        self.dir = tempfile.mkdtemp(prefix="slingvt-bench-pg-")
        os.chmod(self.dir, 0o755)
        p = self.sling_vt("start")
        if p.returncode != 0:
            raise RuntimeError(f"./sling-vt postgres start failed: {(p.stderr or p.stdout).strip()[-800:]}")
        status = json.loads(self.sling_vt("status").stdout)
        self.pid, self.port = status["pid"], status["port"]
        self.running[self.pid] = "PostgreSQL"
        self.psql = self._psql()
        self.version = self.query("postgres", "SHOW server_version")
        self.log(f"PostgreSQL {self.version} PID {self.pid} on 127.0.0.1:{self.port}, data in {self.dir}")
        if self.latency_ms is not None:
            self.proxy = Toxiproxy(self.root, self.log, self.running)
            self.proxy.start(self.port, self.latency_ms)

    def _psql(self):
        for path in sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"), reverse=True) + [shutil.which("psql")]:
            if path and os.access(path, os.X_OK):
                return path
        raise RuntimeError("psql not found (Debian: apt-get install postgresql-client)")

    def password(self):
        """The role oak's password, which the lab server keeps in its folder (0600)."""
        with open(os.path.join(self.dir, "oak-password")) as f:
            return f.read()

    def write_secret(self, home):
        """The instance's copy of the password, where the feature's data source reads it (HOME/launcher/secrets: the launcher's folder is the instance's sling.home)."""
        secrets = os.path.join(home, "launcher", "secrets")
        os.makedirs(secrets, mode=0o700, exist_ok=True)
        path = os.path.join(secrets, "oak-db-password")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(self.password())

    def query(self, db, sql):
        # The password through the environment of psql, never its command line.
        p = subprocess.run([self.psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", "oak", "-d", db, "-tAc", sql],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, PGPASSWORD=self.password()))
        if p.returncode != 0:
            raise RuntimeError(f"psql {sql!r} failed: {p.stderr.strip()}")
        return p.stdout.strip()

    def create_database(self, config):
        """A database of its own for configuration `config`, as Oak's RDB documentation asks."""
        db = "oak_" + re.sub(r"[^a-z0-9]", "_", config.lower())
        self.query("postgres", f"DROP DATABASE IF EXISTS {db}")
        self.query("postgres", f"CREATE DATABASE {db} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        return f"jdbc:postgresql://127.0.0.1:{self.proxy.port if self.proxy else self.port}/{db}"

    def cpu_seconds(self):
        """CPU of the whole server: the postmaster, its live children, and the children that exited (cutime)."""
        own, waited, _ = _cpu_of(self.pid)
        total = own + waited
        for stat in glob.glob("/proc/[0-9]*/stat"):
            pid = int(stat.split("/")[2])
            if pid == self.pid:
                continue
            cpu, child_waited, ppid = _cpu_of(pid)
            if ppid == self.pid:
                total += cpu + child_waited
        return total

    def stop(self):
        if self.proxy is not None:
            self.proxy.stop()
            self.proxy = None
        if self.dir is None:
            return
        try:
            p = self.sling_vt("stop", timeout=90)
            if p.returncode != 0:
                self.log(f"./sling-vt postgres stop: {(p.stderr or p.stdout).strip()[-300:]}")
        except subprocess.TimeoutExpired:
            self.log("./sling-vt postgres stop did not return within 90 s")
        if self.pid and os.path.exists(f"/proc/{self.pid}"):
            self.log(f"PostgreSQL (PID {self.pid}) still runs; SIGQUIT")
            try:
                os.kill(self.pid, 3)
            except ProcessLookupError:
                pass
        self.running.pop(self.pid, None)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None


class PointProbe:
    """Round trips, database CPU and pool figures over one point of one instance."""

    def __init__(self, pg, base_url):
        self.pg, self.url = pg, base_url
        self.active = []
        self.waiting = []
        self.unanswered = 0
        self._stop = threading.Event()
        self._thread = None

    def begin(self):
        s = repository_status(self.url, timeout=30) or {}
        self.rt0 = s.get("dbRoundTrips")
        self.done0 = completed_requests(self.url)
        self.cpu0 = self.pg.cpu_seconds()
        self.t0 = time.time()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.wait(1.0):
            s = repository_status(self.url, timeout=2)
            pool = (s or {}).get("jdbcPool")
            if pool is None:
                self.unanswered += 1  # a saturated kernel pool queues the status request like any other
                continue
            self.active.append(pool.get("active"))
            self.waiting.append(pool.get("waiting"))

    def load_done(self):
        """The load ended: stop sampling the pool and take the database CPU of the load itself."""
        self._stop.set()
        self._thread.join(5)
        self.db_cpu_pct = round(100.0 * (self.pg.cpu_seconds() - self.cpu0) / (time.time() - self.t0), 1)

    def end(self):
        """After the drain: every request of the point has finished, so its round trips are all counted."""
        s = repository_status(self.url, timeout=30) or {}
        rt1, done1 = s.get("dbRoundTrips"), completed_requests(self.url)
        per_request = ""
        if None not in (self.rt0, rt1, self.done0, done1) and done1 > self.done0:
            per_request = round((rt1 - self.rt0) / (done1 - self.done0), 1)
        return dict(db_rt_per_req=per_request, db_cpu_pct=self.db_cpu_pct,
                    pool_active_max=max(self.active) if self.active else "",
                    pool_waiting_max=max(self.waiting) if self.waiting else "",
                    pool_samples=f"{len(self.active)}/{len(self.active) + self.unanswered}")
