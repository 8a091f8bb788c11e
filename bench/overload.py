#!/usr/bin/env python3
"""./sling-vt overload: overload and slow-client protection at full size, with nothing lost (issue #7).

Started by `./sling-vt overload` (which finds the JDK, builds if needed and passes --root/--launcher/--feature-*).
Three scenarios, each on a fresh instance (own home under the output folder, a free port on 127.0.0.1), driven by
an asyncio client in this process (Python 3 standard library only):

  bounded    -Xmx512m, maxConcurrentRequests 200: 2,000 keep-alive clients for 60 s, each request holding a slot
             for 500 ms and reading a 4 MiB binary; a 503 is retried after its Retry-After.
  unbounded  -Xmx1g, unbounded virtual mode: as many requests parked at once (idleDelay 60 s) as the file-descriptor
             limit allows (about 19,000 under a 20,000 limit), ramped in batches of 1,000.
  slowloris  Felix idle timeout (org.apache.felix.http.timeout) 5 s: 1,000 connections send a partial request, then
             half stop and half trickle a header byte every 7 s; plus 50 connections trickling a byte every second
             (faster than the idle timeout) and 5 trickling 1,000 header bytes a second.

Results: results.json and results.md in the output folder, plus each instance's logs. Every process this script
starts is stopped by PID (bench.py's RUNNING/stop_all), every wait is bounded, all traffic goes to 127.0.0.1.
"""
import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (helpers only; bench.py itself is not changed)
from bench import BenchError, log  # noqa: E402

HTTP_PID = bench.HTTP_PID
FELIX_HTTP_PID = bench.FELIX_HTTP_PID
STATUS = "/system/console/status-slingvt-http.json"
STATUS_TXT = "/system/console/status-slingvt-http.txt"
GATE_BODY = b"too many concurrent requests"

BOUNDED = dict(cap=200, queue=200, queue_timeout=1000, retry_after=1, clients=2000, duration=60,
               path="/bin/vt/work.json?reads=20&fileLength=4194304&idleDelay=500", xmx="-Xmx512m")
UNBOUNDED = dict(target=19000, batch=1000, idle_delay=60000, fd_reserve=600, xmx="-Xmx1g")
SLOW = dict(idle_timeout_ms=5000, slow=1000, slow_trickle_s=7.0, margin_s=20.0, fast=50, fast_trickle_s=1.0,
            fast_observe_s=60.0, big=5, big_bytes=1000, big_observe_s=60.0)
QUICK = dict(bounded=dict(clients=400, cap=40, queue=40, duration=15), unbounded=dict(target=2000),
             slow=dict(slow=200, fast=10, fast_observe_s=15.0, big_observe_s=30.0))


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


# ---------------------------------------------------------------------------------------------- instance
class OverloadInstance(bench.Instance):
    """bench.Instance with this script's configuration files and its own readiness check."""

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
        bench.write_lab_demo_config(install)
        for pid, props in self.configs.items():
            with open(os.path.join(install, f"{pid}.cfg.json"), "w") as f:
                json.dump(props, f, indent=2)
                f.write("\n")

    def verify(self):
        deadline = time.time() + 90
        last = None
        while time.time() < deadline:
            code, body = bench.http_get(self.url + STATUS_TXT, timeout=10, auth="admin:admin")
            last = (code, body[:500])
            if code == 200 and self.expect_status in body.decode("utf-8", "replace"):
                self.info["verified"] = self.expect_status
                return
            time.sleep(1)
        raise BenchError(f"{self.name}: status does not show '{self.expect_status}' after 90 s: {last}")

    def counters(self):
        code, body = bench.http_get(self.url + STATUS, timeout=30, auth="admin:admin")
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


def heap_info(args, pid):
    """(used MiB, committed MiB) of the heap without a GC, from jcmd GC.heap_info."""
    try:
        out = subprocess.run([args.jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True,
                                   timeout=30).stdout
    except subprocess.TimeoutExpired:
        return None, None
    m = re.search(r"heap\s+total[^\n]*?committed\s+(\d+)K, used\s+(\d+)K", out)
    return (round(int(m.group(2)) / 1024.0, 1), round(int(m.group(1)) / 1024.0, 1)) if m else (None, None)


class Sampler:
    """Samples the server's OS threads and RSS from /proc every 0.5 s while running (a thread of its own)."""

    def __init__(self, pid):
        self.pid, self.threads, self.rss = pid, [], []
        self.stop_flag = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stop_flag:
            t, r = bench.proc_threads_rss(self.pid)
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


# ---------------------------------------------------------------------------------------------- HTTP over asyncio
async def read_response(reader):
    """(status, headers, body, close) of one HTTP/1.x answer; body by Content-Length, chunked or until EOF."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    close = headers.get("connection", "").lower() == "close" or lines[0].startswith("HTTP/1.0")
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        body = await reader.read()
        close = True
    return status, headers, body, close


def close_writer(writer):
    if writer is not None:
        try:
            writer.close()
        except Exception:  # noqa: BLE001 - closing a broken connection
            pass


# ---------------------------------------------------------------------------------------------- bounded
async def bounded_load(port, cfg, sampler_pid, args):
    req = (f"GET {cfg['path']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").encode()
    st = dict(sent=0, ok=0, gate503=0, other=0, errors=0, connections=0, retry_after_missing=0,
              other_examples=[], error_examples=[], ok_latency=[], r503_latency=[], retry_after_values={})
    start = time.monotonic()
    deadline = start + cfg["duration"]
    heap = {}

    async def client(i):
        await asyncio.sleep(i * 0.0005)  # 2,000 connections over about 1 s
        reader = writer = None
        while time.monotonic() < deadline:
            try:
                if writer is None:
                    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
                    st["connections"] += 1
                st["sent"] += 1
                t0 = time.monotonic()
                writer.write(req)
                status, headers, body, close = await asyncio.wait_for(read_response(reader), 90)
                dt = time.monotonic() - t0
                if status == 200:
                    st["ok"] += 1
                    st["ok_latency"].append(dt)
                    wait = 0
                elif status == 503 and GATE_BODY in body:
                    st["gate503"] += 1
                    st["r503_latency"].append(dt)
                    ra = headers.get("retry-after")
                    st["retry_after_values"][ra] = st["retry_after_values"].get(ra, 0) + 1
                    if ra is None or not ra.isdigit():
                        st["retry_after_missing"] += 1
                    wait = int(ra) if ra and ra.isdigit() else 1
                else:
                    st["other"] += 1
                    if len(st["other_examples"]) < 5:
                        st["other_examples"].append(f"HTTP {status}: {body[:200]!r}")
                    wait = 1
                if close:
                    close_writer(writer)
                    reader = writer = None
                if wait:
                    await asyncio.sleep(wait)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError,
                    ValueError, IndexError) as e:
                st["errors"] += 1
                if len(st["error_examples"]) < 5:
                    st["error_examples"].append(repr(e))
                close_writer(writer)
                reader = writer = None
                await asyncio.sleep(1)
        close_writer(writer)

    async def heap_probe():
        await asyncio.sleep(cfg["duration"] * 0.8)
        loop = asyncio.get_running_loop()
        mib = await loop.run_in_executor(None, bench.heap_after_gc, args.jcmd, sampler_pid)
        heap["after_gc_mib"] = None if mib is None else round(mib, 1)

    await asyncio.gather(heap_probe(), *(client(i) for i in range(cfg["clients"])))
    st["elapsed_s"] = round(time.monotonic() - start, 1)
    st["heap_after_gc_at_80pct_mib"] = heap.get("after_gc_mib")
    for k in ("ok_latency", "r503_latency"):
        v = st.pop(k)
        st[k.replace("latency", "latency_ms")] = dict(
            p50=round(pct(v, 50) * 1000) if v else None, p99=round(pct(v, 99) * 1000) if v else None,
            max=round(max(v) * 1000) if v else None)
    return st


def run_bounded(args, out, cfg):
    configs = {HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": cfg["cap"], "maxQueuedRequests": cfg["queue"],
                          "queueTimeout": cfg["queue_timeout"], "retryAfterSeconds": cfg["retry_after"]}}
    inst = OverloadInstance(args, "bounded", os.path.join(out, "instances", "bounded"), bench.free_port(),
                            f"{cfg['xmx']} -XX:+UseG1GC", configs, f"Max concurrent requests: {cfg['cap']}")
    res = dict(config=cfg, instance=inst.info)
    try:
        inst.start()
        before = inst.counters()
        log(f"bounded: {cfg['clients']} clients for {cfg['duration']} s against cap {cfg['cap']}")
        with Sampler(inst.pid) as sampler:
            st = asyncio.run(bounded_load(inst.port, cfg, inst.pid, args))
        status_requests = 0
        deadline = time.time() + 60
        while True:
            status_requests += 1
            after = inst.counters()
            if (after["inFlight"] == 1 and after["queued"] == 0) or time.time() > deadline:
                break
            time.sleep(0.5)
        normal = [bench.http_get(inst.url + "/bin/vt/work.json?reads=5", timeout=30)[0] for _ in range(5)]
        d_adm = after["admitted"] - before["admitted"]
        d_rej = after["rejected"] - before["rejected"]
        res.update(load=st, server=dict(before=before, after=after, sampled=sampler.summary(),
                                        heap_used_committed_mib_after=heap_info(args, inst.pid),
                                        fds_after=inst.fd_count()),
                   checks=dict(
                       answered_equals_sent=st["ok"] + st["gate503"] + st["other"] == st["sent"]
                       and st["errors"] == 0,
                       no_other_status=st["other"] == 0, no_connection_errors=st["errors"] == 0,
                       every_503_has_retry_after=st["retry_after_missing"] == 0,
                       admitted_matches=d_adm == st["ok"] + status_requests,
                       rejected_matches=d_rej == st["gate503"],
                       completed_equals_admitted=after["completed"] == after["admitted"] - 1,
                       peak_in_flight_within_cap=after["peakInFlight"] <= cfg["cap"],
                       normal_requests_after=normal, normal_ok_after=all(c == 200 for c in normal),
                       alive=bench.pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
                       error_entries=inst.error_entries()[:10]),
                   accounting=dict(admitted_delta=d_adm, rejected_delta=d_rej, status_requests=status_requests))
    except BenchError as e:
        res["error"] = str(e)
        log(f"bounded: {e}")
    finally:
        inst.stop()
    return res


# ---------------------------------------------------------------------------------------------- unbounded
async def unbounded_load(inst, cfg, n, args):
    port = inst.port
    req = (f"GET /bin/vt/work.json?idleDelay={cfg['idle_delay']} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n").encode()
    st = dict(target=n, sent=0, ok=0, other=0, errors=0, error_examples=[], other_examples=[], batches=[])
    loop = asyncio.get_running_loop()
    start = time.monotonic()

    async def one():
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 60)
            st["sent"] += 1
            writer.write(req)
            status, _, body, _ = await asyncio.wait_for(read_response(reader), cfg["idle_delay"] / 1000 + 120)
            if status == 200:
                st["ok"] += 1
            else:
                st["other"] += 1
                if len(st["other_examples"]) < 5:
                    st["other_examples"].append(f"HTTP {status}: {body[:200]!r}")
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, IndexError) as e:
            st["errors"] += 1
            if len(st["error_examples"]) < 5:
                st["error_examples"].append(repr(e))
        finally:
            close_writer(writer)

    tasks = []
    for b in range(0, n, cfg["batch"]):
        size = min(cfg["batch"], n - b)
        for _ in range(size):
            tasks.append(asyncio.ensure_future(one()))
            if len(tasks) % 100 == 0:
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
        t, r = bench.proc_threads_rss(inst.pid)
        st["batches"].append(dict(requests=len(tasks), at_s=round(time.monotonic() - start, 1), threads=t,
                                  rss_mib=round(r or 0), fds=inst.fd_count(), errors=st["errors"]))
        log(f"unbounded: {len(tasks)} sent after {time.monotonic() - start:.1f} s, server threads {t}, "
            f"RSS {r or 0:.0f} MiB, fds {inst.fd_count()}, errors {st['errors']}")
        if st["errors"] or not bench.pid_alive(inst.pid):
            log("unbounded: errors or the server died: no further batches")
            break
    # All sent: wait (bounded) until the server has them in flight, then measure while they are parked.
    parked = None
    wait_until = time.monotonic() + 30
    while time.monotonic() < wait_until:
        parked = await loop.run_in_executor(None, inst.counters)
        if parked["inFlight"] > len(tasks) - st["errors"] or st["ok"]:
            break
        await asyncio.sleep(0.5)
    st["parked_counters"] = parked
    st["parked_at_s"] = round(time.monotonic() - start, 1)
    st["answered_before_measure"] = st["ok"] + st["other"]
    threads = []
    rss = []
    for _ in range(6):
        t, r = bench.proc_threads_rss(inst.pid)
        threads.append(t)
        rss.append(r)
        await asyncio.sleep(0.5)
    t0 = time.monotonic()
    code, _ = await loop.run_in_executor(None, lambda: bench.http_get(inst.url + "/bin/vt/work.json?reads=5",
                                                                       timeout=60))
    st["normal_while_parked"] = dict(status=code, ms=round((time.monotonic() - t0) * 1000))
    st["heap_used_committed_mib_while_parked"] = await loop.run_in_executor(None, heap_info, args, inst.pid)
    mib = await loop.run_in_executor(None, bench.heap_after_gc, args.jcmd, inst.pid)
    st["heap_after_gc_mib_while_parked"] = None if mib is None else round(mib, 1)
    st["threads_while_parked"] = threads
    st["rss_mib_while_parked"] = round(max(x or 0 for x in rss))
    st["fds_while_parked"] = inst.fd_count()
    st["still_parked_after_measure"] = len(tasks) - st["errors"] - st["ok"] - st["other"]
    log(f"unbounded: parked {parked and parked['inFlight'] - 1} in flight; threads {threads}; normal {code}; "
        f"heap after GC {st['heap_after_gc_mib_while_parked']} MiB")
    await asyncio.wait_for(asyncio.gather(*tasks), cfg["idle_delay"] / 1000 + 180)
    st["elapsed_s"] = round(time.monotonic() - start, 1)
    return st


def run_unbounded(args, out, cfg, fd_limit):
    configs = {HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}
    inst = OverloadInstance(args, "unbounded", os.path.join(out, "instances", "unbounded"), bench.free_port(),
                            f"{cfg['xmx']} -XX:+UseG1GC", configs, "Max concurrent requests: unbounded")
    res = dict(config=cfg, instance=inst.info)
    try:
        inst.start()
        idle_fds = inst.fd_count() or 0
        # Server: its own files + one socket per parked request; client (this process): one socket each.
        n = min(cfg["target"], fd_limit - idle_fds - cfg["fd_reserve"], fd_limit - 200)
        t, r = bench.proc_threads_rss(inst.pid)
        res["idle"] = dict(fds=idle_fds, threads=t, rss_mib=round(r or 0), fd_limit=fd_limit, planned=n)
        log(f"unbounded: fd limit {fd_limit}, server uses {idle_fds} fds idle: {n} parked requests")
        before = inst.counters()
        st = asyncio.run(unbounded_load(inst, cfg, n, args))
        after = inst.counters()
        parked = st.get("parked_counters") or {}
        res.update(load=st, server=dict(before=before, after=after),
                   checks=dict(all_ok=st["ok"] == n, no_errors=st["errors"] == 0 and st["other"] == 0,
                               parked_at_once=(parked.get("inFlight", 0) - 1) if parked else None,
                               threads_max_while_parked=max((x for x in st["threads_while_parked"] if x), default=None),
                               normal_ok_while_parked=st["normal_while_parked"]["status"] == 200,
                               rejected_delta=after["rejected"] - before["rejected"],
                               alive=bench.pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
                               error_entries=inst.error_entries()[:10]))
    except BenchError as e:
        res["error"] = str(e)
        log(f"unbounded: {e}")
    finally:
        inst.stop()
    return res


# ---------------------------------------------------------------------------------------------- slowloris
PARTIAL = b"GET /bin/vt/work.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"


async def trickler(port, every_s, chunk, observe_s, from_start, results, held):
    """Partial request, then `chunk` more header bytes every `every_s` (never if None) until the server closes or
    `observe_s` passed (since the last byte, or since the start if from_start)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
        writer.write(PARTIAL)
        await writer.drain()
    except (OSError, asyncio.TimeoutError) as e:
        results.append(dict(closed_after_s=None, how="connect failed: " + repr(e), bytes=0))
        return
    held[0] += 1
    start = last = time.monotonic()
    sent = len(PARTIAL)
    how, after, first = "still open", None, b""
    try:
        while True:
            now = time.monotonic()
            give_up = (start if from_start else last) + observe_s
            if now >= give_up:
                break
            wait = give_up - now if every_s is None else min(give_up - now, last + every_s - now)
            try:
                first = await asyncio.wait_for(reader.read(64), max(0.001, wait))
                after = time.monotonic() - last
                how = "EOF" if not first else "answered " + first.split(b"\r\n")[0].decode("latin-1")
                break
            except asyncio.TimeoutError:
                if every_s is not None and time.monotonic() - last >= every_s:
                    writer.write(b"a" * chunk)
                    await writer.drain()
                    sent += chunk
                    last = time.monotonic()
    except OSError as e:
        after = time.monotonic() - last
        how = type(e).__name__
    finally:
        held[0] -= 1
        close_writer(writer)
    results.append(dict(closed_after_s=None if after is None else round(after, 2), how=how, bytes=sent,
                        open_s=round(time.monotonic() - start, 1)))


async def slow_load(inst, cfg):
    port = inst.port
    loop = asyncio.get_running_loop()
    slow, fast, big = [], [], []
    held = [0]
    fheld, bheld = [0], [0]
    idle = cfg["idle_timeout_ms"] / 1000.0
    t_idle = []
    for _ in range(4):
        t_idle.append(bench.proc_threads_rss(inst.pid)[0])
        await asyncio.sleep(0.25)
    tasks = [asyncio.ensure_future(trickler(port, cfg["fast_trickle_s"], 1, cfg["fast_observe_s"], True, fast,
                                            fheld)) for _ in range(cfg["fast"])]
    tasks += [asyncio.ensure_future(trickler(port, cfg["fast_trickle_s"], cfg["big_bytes"], cfg["big_observe_s"], True,
                                             big, bheld)) for _ in range(cfg["big"])]
    start = time.monotonic()
    slow_tasks = []
    for i in range(cfg["slow"]):
        every = cfg["slow_trickle_s"] if i % 2 == 0 else None
        slow_tasks.append(asyncio.ensure_future(trickler(port, every, 1, idle + cfg["margin_s"], False, slow, held)))
        if i % 100 == 99:
            await asyncio.sleep(0.01)
    while held[0] + len(slow) < cfg["slow"] and time.monotonic() - start < 30:
        await asyncio.sleep(0.05)
    connected_s = round(time.monotonic() - start, 2)
    samples, held_at = [], []
    for _ in range(5):
        held_at.append(held[0])
        samples.append(bench.proc_threads_rss(inst.pid)[0])
        await asyncio.sleep(0.2)
    t0 = time.monotonic()
    code, _ = await loop.run_in_executor(None, lambda: bench.http_get(inst.url + "/bin/vt/work.json", timeout=30))
    normal = dict(status=code, ms=round((time.monotonic() - t0) * 1000), held=held[0])
    await asyncio.wait_for(asyncio.gather(*slow_tasks), idle + cfg["margin_s"] + 60)
    fast_open_at_end_of_slow = fheld[0]
    await asyncio.wait_for(asyncio.gather(*tasks), max(cfg["fast_observe_s"], cfg["big_observe_s"]) + 60)
    closed = [r["closed_after_s"] for r in slow if r["closed_after_s"] is not None]
    hows = {}
    for r in slow:
        hows[r["how"]] = hows.get(r["how"], 0) + 1

    def group(rs):
        h = {}
        for r in rs:
            h[r["how"]] = h.get(r["how"], 0) + 1
        return dict(count=len(rs), how=h, bytes_max=max((r["bytes"] for r in rs), default=0),
                    open_s_max=max((r["open_s"] for r in rs if "open_s" in r), default=None),
                    closed_after_s=sorted(r["closed_after_s"] for r in rs if r["closed_after_s"] is not None)[:10])

    return dict(idle_timeout_s=idle, connected_after_s=connected_s, threads_idle=t_idle, threads_held=samples,
                held_at_samples=held_at, normal_while_held=normal,
                slow=dict(count=len(slow), closed=len(closed), how=hows,
                          closed_after_last_byte_s=dict(min=min(closed, default=None),
                                                        median=statistics.median(closed) if closed else None,
                                                        p99=pct(closed, 99), max=max(closed, default=None))),
                fast_1byte_per_s=dict(group(fast), open_when_slow_ones_were_closed=fast_open_at_end_of_slow),
                fast_1000bytes_per_s=group(big))


def run_slow(args, out, cfg):
    port = bench.free_port()
    configs = {FELIX_HTTP_PID: {"org.apache.felix.http.host": "127.0.0.1", "org.osgi.service.http.port": port,
                                "org.apache.felix.jetty.relativeredirectallowed": False,
                                "org.apache.felix.http.jetty.virtualthreads.enable": False,
                                "org.apache.felix.http.timeout": cfg["idle_timeout_ms"]}}
    inst = OverloadInstance(args, "slowloris", os.path.join(out, "instances", "slowloris"), port,
                            "-Xmx1g -XX:+UseG1GC", configs, "Max concurrent requests: unbounded")
    res = dict(config=cfg, instance=inst.info)
    try:
        inst.start()
        # Felix restarts Jetty when the install folder's configuration arrives: wait until an idle connection is
        # closed after about the configured idle timeout.
        probe = asyncio.run(probe_idle_timeout(port, cfg["idle_timeout_ms"] / 1000.0))
        res["idle_probe_closed_after_s"] = probe
        log(f"slowloris: idle connection closed after {probe} s; {cfg['slow']} slow connections")
        st = asyncio.run(slow_load(inst, cfg))
        limit = st["idle_timeout_s"] + cfg["margin_s"]
        res.update(load=st, checks=dict(
            all_closed_within_limit=st["slow"]["closed"] == cfg["slow"]
            and (st["slow"]["closed_after_last_byte_s"]["max"] or 1e9) <= limit,
            thread_growth=max(x or 0 for x in st["threads_held"]) - max(x or 0 for x in st["threads_idle"]),
            normal_ok_while_held=st["normal_while_held"]["status"] == 200,
            alive=bench.pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
            error_entries=inst.error_entries()[:10]))
    except BenchError as e:
        res["error"] = str(e)
        log(f"slowloris: {e}")
    finally:
        inst.stop()
    return res


async def probe_idle_timeout(port, idle):
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            t0 = time.monotonic()
            data = await asyncio.wait_for(reader.read(1), idle + 5)
            if not data:
                return round(time.monotonic() - t0, 2)
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            close_writer(writer)
        await asyncio.sleep(1)
    raise BenchError(f"an idle connection is not closed within {idle + 5} s: idle timeout not in force")


# ---------------------------------------------------------------------------------------------- report
def markdown(results):
    m = results["machine"]
    lines = [f"# Overload and slow-client protection ({m['date']})", "",
             f"{m['nproc']} CPUs, {m['mem_gib']} GiB, {m['jdk']}; fd limit {m['fd_limit']}; "
             f"load generator: bench/overload.py (asyncio, one process) on the same machine. "
             f"Elapsed {results.get('elapsed_s')} s.", ""]
    b = results.get("bounded", {})
    if "load" in b:
        c, ld, s, ch = b["config"], b["load"], b["server"], b["checks"]
        lines += ["## Bounded: cap {cap}, queue {queue}, queue timeout {qt} ms, {xmx}".format(
            cap=c["cap"], queue=c["queue"], qt=c["queue_timeout"], xmx=c["xmx"]), "",
            f"{c['clients']:,} keep-alive clients for {c['duration']} s, `{c['path']}` (a 503 is retried after its "
            f"Retry-After).", "",
            "| sent | 200 | 503 (gate) | other | connection errors/resets | peak in-flight | server admitted / rejected (delta) |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {ld['sent']:,} | {ld['ok']:,} | {ld['gate503']:,} | {ld['other']} | {ld['errors']} | "
            f"{s['after']['peakInFlight']} | {b['accounting']['admitted_delta']:,} / {b['accounting']['rejected_delta']:,} |",
            "",
            f"- OS threads max {s['sampled']['threads_max']}, RSS max {s['sampled']['rss_max_mib']} MiB, heap after a "
            f"full GC at 80 % of the run {ld['heap_after_gc_at_80pct_mib']} MiB (of {c['xmx']}).",
            f"- Latency 200: p50 {ld['ok_latency_ms']['p50']} ms, p99 {ld['ok_latency_ms']['p99']} ms; 503: p50 "
            f"{ld['r503_latency_ms']['p50']} ms, p99 {ld['r503_latency_ms']['p99']} ms. Retry-After values: "
            f"{ld['retry_after_values']}.",
            f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
            f"{len(ch['error_entries'])}.", ""]
    elif b:
        lines += ["## Bounded", "", f"failed: {b.get('error')}", ""]
    u = results.get("unbounded", {})
    if "load" in u:
        ld, ch = u["load"], u["checks"]
        lines += [f"## Unbounded: parked requests, {u['config']['xmx']}", "",
                  f"fd limit {u['idle']['fd_limit']:,} per process; the idle server holds {u['idle']['fds']} fds, so "
                  f"{u['idle']['planned']:,} requests (`idleDelay={u['config']['idle_delay']}`) were sent in batches "
                  f"of {u['config']['batch']:,}.", "",
                  "| parked at once | 200 | errors/other | OS threads while parked | RSS | heap used / after full GC | normal request while parked |",
                  "|---:|---:|---:|---:|---:|---:|---:|",
                  f"| {ch['parked_at_once']:,} | {ld['ok']:,} | {ld['errors']} / {ld['other']} | "
                  f"{ch['threads_max_while_parked']} (idle {u['idle']['threads']}) | {ld['rss_mib_while_parked']} MiB | "
                  f"{ld['heap_used_committed_mib_while_parked'][0]} / {ld['heap_after_gc_mib_while_parked']} MiB | "
                  f"{ld['normal_while_parked']['status']} in {ld['normal_while_parked']['ms']} ms |", "",
                  f"- Ramp: " + ", ".join(f"{x['requests']:,} @ {x['at_s']} s ({x['threads']} thr, {x['rss_mib']} MiB)"
                                          for x in ld["batches"]), "",
                  f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
                  f"{len(ch['error_entries'])}.", ""]
        if ld["error_examples"] or ld["other_examples"]:
            lines += [f"- Examples: {ld['error_examples'] + ld['other_examples']}", ""]
    elif u:
        lines += ["## Unbounded", "", f"failed: {u.get('error')}", ""]
    s = results.get("slowloris", {})
    if "load" in s:
        ld, ch, c = s["load"], s["checks"], s["config"]
        sl = ld["slow"]["closed_after_last_byte_s"]
        lines += [f"## Slowloris: Felix idle timeout {c['idle_timeout_ms']} ms", "",
                  f"{c['slow']:,} connections send `GET /bin/vt/work.json HTTP/1.1`, `Host` and part of a header; "
                  f"half stop, half send one more byte every {c['slow_trickle_s']} s.", "",
                  "| closed by the server | time to close after last byte (min / median / p99 / max) | how | OS threads idle → held | normal request while held |",
                  "|---:|---:|---|---:|---:|",
                  f"| {ld['slow']['closed']:,} of {ld['slow']['count']:,} | {sl['min']} / {sl['median']} / {sl['p99']} / "
                  f"{sl['max']} s | {ld['slow']['how']} | {max(x or 0 for x in ld['threads_idle'])} → "
                  f"{max(x or 0 for x in ld['threads_held'])} | {ld['normal_while_held']['status']} in "
                  f"{ld['normal_while_held']['ms']} ms |", "",
                  f"- Faster than the idle timeout, 1 byte every {c['fast_trickle_s']} s ({c['fast']} connections, "
                  f"{c['fast_observe_s']} s): {ld['fast_1byte_per_s']['how']}, up to {ld['fast_1byte_per_s']['bytes_max']} "
                  f"bytes sent; still open when the slow ones had all been closed: "
                  f"{ld['fast_1byte_per_s']['open_when_slow_ones_were_closed']}.",
                  f"- {c['big_bytes']} header bytes every {c['fast_trickle_s']} s ({c['big']} connections, "
                  f"{c['big_observe_s']} s): {ld['fast_1000bytes_per_s']['how']}, after up to "
                  f"{ld['fast_1000bytes_per_s']['bytes_max']} bytes / {ld['fast_1000bytes_per_s']['open_s_max']} s.",
                  f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
                  f"{len(ch['error_entries'])}.", ""]
    elif s:
        lines += ["## Slowloris", "", f"failed: {s.get('error')}", ""]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(prog="./sling-vt overload", description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="output folder (default .sling-vt/overload/<timestamp>)")
    ap.add_argument("--only", help="comma-separated subset of: bounded, unbounded, slowloris")
    ap.add_argument("--quick", action="store_true", help="smaller sizes (about 4 min): for trying the script")
    ap.add_argument("--no-build", action="store_true", help="(read by ./sling-vt) use the assembled feature as it is")
    bench.add_launch_args(ap)
    args = ap.parse_args()
    bench.check_launch_args(args, "overload")
    only = (args.only or "bounded,unbounded,slowloris").split(",")
    for o in only:
        if o not in ("bounded", "unbounded", "slowloris"):
            raise BenchError(f"unknown scenario '{o}'")
    bcfg, ucfg, scfg = dict(BOUNDED), dict(UNBOUNDED), dict(SLOW)
    if args.quick:
        bcfg.update(QUICK["bounded"])
        ucfg.update(QUICK["unbounded"])
        scfg.update(QUICK["slow"])
    out = os.path.abspath(args.out or os.path.join(args.root, ".sling-vt", "overload", time.strftime("%Y%m%d-%H%M%S")))
    os.makedirs(out, exist_ok=True)
    signal.signal(signal.SIGINT, bench.on_signal)
    signal.signal(signal.SIGTERM, bench.on_signal)
    fd_limit = bench.raise_fd_limit()
    bench.snapshot_feature(args, out)
    args.wrk = "true"  # machine_info asks wrk for its version; no wrk is used here
    machine = bench.machine_info(argparse.Namespace(**dict(vars(args), jvm_opts="per scenario", wrk_threads=None,
                                                           wrk_timeout=None)), fd_limit, "none")
    for k in ("wrk", "wrk_threads", "wrk_timeout_s"):
        machine.pop(k, None)
    results = dict(machine=machine, quick=args.quick)
    started = time.time()

    def save():
        results["elapsed_s"] = round(time.time() - started)
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(results, f, indent=2, default=str)
        with open(os.path.join(out, "results.md"), "w") as f:
            f.write(markdown(results))

    try:
        if "bounded" in only:
            results["bounded"] = run_bounded(args, out, bcfg)
            save()
        if "unbounded" in only:
            results["unbounded"] = run_unbounded(args, out, ucfg, fd_limit)
            save()
        if "slowloris" in only:
            results["slowloris"] = run_slow(args, out, scfg)
            save()
    finally:
        bench.stop_all()
    # Keep logs and the installed configuration; drop repositories, caches, access logs and the feature copy.
    for name in ("bounded", "unbounded", "slowloris"):
        bench.prune_instance_home(os.path.join(out, "instances", name))
    shutil.rmtree(os.path.join(out, "feature"), ignore_errors=True)
    save()
    log(f"done in {results['elapsed_s']} s: {out}/results.md, results.json")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        bench.stop_all()
        print(f"sling-vt overload: {e}", file=sys.stderr)
        sys.exit(1)
