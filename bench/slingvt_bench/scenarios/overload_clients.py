"""The clients of the overload run, all asyncio in one process: 2,000 keep-alive clients against a cap
(bounded), batches of parked requests (unbounded), and slow-header connections (slowloris), plus the small
HTTP/1.1 reading they share."""
import asyncio
import re
import subprocess
import time

from slingvt_bench.core.common import log, pid_alive
from slingvt_bench.core.httpget import http_get
from slingvt_bench.samples.sampling import heap_after_gc, proc_threads_rss


GATE_BODY = b"too many concurrent requests"


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
