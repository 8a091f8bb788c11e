"""The clients of the overload run, all asyncio in one process: 2,000 keep-alive clients against a cap
(bounded), batches of parked requests (unbounded), and slow-header connections (slowloris), plus the small
HTTP/1.1 reading they share."""
import asyncio
import re
import statistics
import subprocess
import time

from .common import BenchError, log, pid_alive
from .httpget import http_get
from .sampling import heap_after_gc, proc_threads_rss


GATE_BODY = b"too many concurrent requests"


# ---------------------------------------------------------------------------------------------- slowloris
PARTIAL = b"GET /bin/vt/work.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


def heap_info(args, pid):
    """(used MiB, committed MiB) of the heap without a GC, from jcmd GC.heap_info."""
    try:
        out = subprocess.run([args.jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True,
                                   timeout=30).stdout
    except subprocess.TimeoutExpired:
        return None, None
    m = re.search(r"heap\s+total[^\n]*?committed\s+(\d+)K, used\s+(\d+)K", out)
    return (round(int(m.group(2)) / 1024.0, 1), round(int(m.group(1)) / 1024.0, 1)) if m else (None, None)


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
        mib = await loop.run_in_executor(None, heap_after_gc, args.jcmd, sampler_pid)
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
        t, r = proc_threads_rss(inst.pid)
        st["batches"].append(dict(requests=len(tasks), at_s=round(time.monotonic() - start, 1), threads=t,
                                  rss_mib=round(r or 0), fds=inst.fd_count(), errors=st["errors"]))
        log(f"unbounded: {len(tasks)} sent after {time.monotonic() - start:.1f} s, server threads {t}, "
            f"RSS {r or 0:.0f} MiB, fds {inst.fd_count()}, errors {st['errors']}")
        if st["errors"] or not pid_alive(inst.pid):
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
        t, r = proc_threads_rss(inst.pid)
        threads.append(t)
        rss.append(r)
        await asyncio.sleep(0.5)
    t0 = time.monotonic()
    code, _ = await loop.run_in_executor(None, lambda: http_get(inst.url + "/bin/vt/work.json?reads=5",
                                                                       timeout=60))
    st["normal_while_parked"] = dict(status=code, ms=round((time.monotonic() - t0) * 1000))
    st["heap_used_committed_mib_while_parked"] = await loop.run_in_executor(None, heap_info, args, inst.pid)
    mib = await loop.run_in_executor(None, heap_after_gc, args.jcmd, inst.pid)
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
        t_idle.append(proc_threads_rss(inst.pid)[0])
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
        samples.append(proc_threads_rss(inst.pid)[0])
        await asyncio.sleep(0.2)
    t0 = time.monotonic()
    code, _ = await loop.run_in_executor(None, lambda: http_get(inst.url + "/bin/vt/work.json", timeout=30))
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
