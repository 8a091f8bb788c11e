"""./sling-vt overload: its instance (status counters, descriptors, errors) and the thread/RSS sampler."""
import argparse
import json
import os
import threading
import time

from slingvt_bench.core.common import BenchError
from slingvt_bench.core.httpget import http_get
from slingvt_bench.instances.instance import Instance, write_lab_demo_config
from slingvt_bench.samples.sampling import proc_threads_rss


STATUS = "/system/console/status-slingvt-http.json"


STATUS_TXT = "/system/console/status-slingvt-http.txt"


# ---------------------------------------------------------------------------------------------- instance
class OverloadInstance(Instance):
    """Instance with this script's configuration files and its own readiness check."""

    def __init__(self, args, name, home, port, jvm_opts, configs, expect_status):
        a = argparse.Namespace(**vars(args))
        a.jvm_opts = jvm_opts
        a.server_cpus = None
        super().__init__(a, name, home, port)
        self.configs = configs
        self.expect_status = expect_status
        self.info["jvm_opts"] = jvm_opts
        self.info["configs"] = configs

    def write_config(self):
        install = os.path.join(self.home, "launcher", "install")
        os.makedirs(install, exist_ok=True)
        os.makedirs(os.path.join(self.home, "logs"), exist_ok=True)
        write_lab_demo_config(install)
        for pid, props in self.configs.items():
            with open(os.path.join(install, f"{pid}.cfg.json"), "w") as f:
                json.dump(props, f, indent=2)
                f.write("\n")

    def verify(self):
        deadline = time.time() + 90
        last = None
        while time.time() < deadline:
            code, body = http_get(self.url + STATUS_TXT, timeout=10, auth="admin:admin")
            last = (code, body[:500])
            if code == 200 and self.expect_status in body.decode("utf-8", "replace"):
                self.info["verified"] = self.expect_status
                return
            time.sleep(1)
        raise BenchError(f"{self.name}: status does not show '{self.expect_status}' after 90 s: {last}")

    def counters(self):
        code, body = http_get(self.url + STATUS, timeout=30, auth="admin:admin")
        if code != 200:
            raise BenchError(f"{self.name}: {STATUS} answered {code}: {body[:300]!r}")
        return json.loads(body)

    def fd_count(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return None

    def oom_mentions(self):
        found = []
        for log_name in ("error.log", "stdout.log"):
            try:
                with open(os.path.join(self.home, "logs", log_name), errors="replace") as f:
                    if "OutOfMemoryError" in f.read():
                        found.append(log_name)
            except OSError:
                pass
        return found

    def error_entries(self):
        return [line for line in self.error_log().splitlines() if "*ERROR*" in line]


class Sampler:
    """Samples the server's OS threads and RSS from /proc every 0.5 s while running (a thread of its own)."""

    def __init__(self, pid):
        self.pid, self.threads, self.rss = pid, [], []
        self.stop_flag = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop_flag:
            t, r = proc_threads_rss(self.pid)
            if t is not None:
                self.threads.append(t)
                self.rss.append(r)
            time.sleep(0.5)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_flag = True
        self.thread.join(5)

    def summary(self):
        return dict(threads_max=max(self.threads, default=None), threads_min=min(self.threads, default=None),
                    rss_max_mib=round(max(self.rss, default=0), 1), samples=len(self.threads))
