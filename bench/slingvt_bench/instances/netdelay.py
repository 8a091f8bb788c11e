"""`./sling-vt bench --store postgres --latency MS`: a network between the instances and PostgreSQL. Stdlib only.

Toxiproxy (`./sling-vt toxiproxy` builds it from its Go module once) listens on a free 127.0.0.1 port and forwards
to PostgreSQL; a `latency` toxic on each direction delays every chunk by MS ms, so that each database round trip
takes 2 x MS ms more, as on a network between hosts. At 0 ms the proxy is in the path all the same (its own cost,
about the same at every latency, is then part of every point). Oak's JDBC URL points at the proxy; the benchmark's
own psql queries (database setup, CPU) go to PostgreSQL directly.
"""
import json
import os
import subprocess
import time
import urllib.request

from slingvt_bench.core.common import free_port


class Toxiproxy:
    """One toxiproxy server with one proxy in front of PostgreSQL; stopped by its PID."""

    def __init__(self, root, log, running):
        self.root, self.log, self.running = root, log, running
        self.proc = None
        self.api = None
        self.port = None

    def start(self, upstream_port, latency_ms):
        p = subprocess.run([os.path.join(self.root, "sling-vt"), "toxiproxy"], capture_output=True, text=True,
                           timeout=900)
        if p.returncode != 0:
            raise RuntimeError(f"./sling-vt toxiproxy failed: {(p.stderr or p.stdout).strip()[-600:]}")
        binary = p.stdout.strip().splitlines()[-1]
        api_port = free_port()
        self.proc = subprocess.Popen([binary, "-host", "127.0.0.1", "-port", str(api_port)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.running[self.proc.pid] = "toxiproxy"
        self.api = f"http://127.0.0.1:{api_port}"
        deadline = time.time() + 30
        while True:
            try:
                self._call("GET", "/version")
                break
            except OSError:
                if time.time() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("toxiproxy did not answer on its API within 30 s")
                time.sleep(0.2)
        self.port = free_port()
        self._call("POST", "/proxies", dict(name="postgres", listen=f"127.0.0.1:{self.port}",
                                           upstream=f"127.0.0.1:{upstream_port}", enabled=True))
        if latency_ms > 0:
            for stream in ("upstream", "downstream"):
                self._call("POST", "/proxies/postgres/toxics",
                           dict(name=f"latency_{stream}", type="latency", stream=stream, toxicity=1.0,
                                attributes=dict(latency=latency_ms, jitter=0)))
        self.log(f"toxiproxy PID {self.proc.pid}: 127.0.0.1:{self.port} -> PostgreSQL 127.0.0.1:{upstream_port}, "
                 f"{latency_ms} ms each way")

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.api + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read() or b"null")

    def cpu_seconds(self):
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, AttributeError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=15)
        self.running.pop(self.proc.pid, None)
        self.proc = None
