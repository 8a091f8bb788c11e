"""./sling-vt overload: the slow-client scenario's clients and the idle-timeout probe."""
import asyncio
import statistics
import time

from slingvt_bench.core.common import BenchError
from slingvt_bench.core.httpget import http_get
from slingvt_bench.samples.sampling import proc_threads_rss
from slingvt_bench.scenarios.overload_clients import close_writer, pct


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
