"""Measuring: the warm-up, and one (configuration, workload, concurrency) point with its samples and drain."""
import os
import shutil
import time

from slingvt_bench.core.common import BenchError, free_port, log
from slingvt_bench.core.httpget import http_get
from slingvt_bench.core.rows import throughput
from slingvt_bench.core.setups import DRAIN_TIMEOUT, GC_TAIL_S, WARMUP_PARAMS, WORKLOADS, urls
from slingvt_bench.instances import pgstore
from slingvt_bench.load.runner import run_wrk, steady_rate
from slingvt_bench.samples import hostprobe
from slingvt_bench.samples.sampling import (attach_listener, heap_after_gc, proc_cpu_seconds, proc_threads_rss,
                                            server_threads, thread_census, thread_cpu_split, wait_quiet)


def warmup(args, inst, pdir, workloads=()):
    """Warms the instance up (args.warmup s of a light mix), then each of workloads for half as long: a run that
    measures only the overload (--only-overload) has no closed points before it, and a page never rendered before its
    first overload point is measured with a cold JIT."""
    if args.warmup <= 0:
        return
    t0 = time.time()
    res = run_wrk(args, f"{inst.url}/bin/vt/work.json?{WARMUP_PARAMS}", 100, args.warmup,
                  os.path.join(pdir, f"{inst.name}-warmup.json"), 30)
    requests = res["requests"]
    for wname in workloads:
        res = run_wrk(args, urls(inst.url, WORKLOADS[wname]), 100, max(15, args.warmup // 2),
                      os.path.join(pdir, f"{inst.name}-warmup-{wname}.json"), 30)
        requests += res["requests"]
    http_get(inst.url + "/bin/vt/work.json", timeout=DRAIN_TIMEOUT)
    inst.info["warmup_s"] = round(time.time() - t0, 1)
    inst.info["warmup_requests"] = requests
    log(f"{inst.name}: warm-up {inst.info['warmup_s']} s, {requests} requests"
        + (f" (then each of {', '.join(workloads)})" if workloads else ""))


# Restarts of one configuration per run after it crashed or failed to start: each costs a start, seeding and warm-up
# (2-3 minutes), so a configuration that keeps failing cannot eat the run.
MAX_RESTARTS = 2


def running(inst):
    """Whether the instance's JVM is up (it may never have been started)."""
    proc = getattr(inst, "proc", None)
    return proc is not None and proc.poll() is None


def note_failure(inst, what, err):
    """Records a failed measurement on the instance (meta.json); marks the configuration down when its JVM is gone."""
    inst.info.setdefault("failures", []).append(f"{what}: {err}")
    if not running(inst):
        inst.info["error"] = str(err)


def ensure_running(args, inst, pdir):
    """None when the configuration runs (restarted in a fresh home on a new port if it was down and restarts are
    left), else why it does not: its points are then recorded as failed with that reason."""
    if "error" not in inst.info:
        return None
    n = inst.info.get("restarts", 0)
    if n >= MAX_RESTARTS:
        return f"down since: {inst.info['error']} (no restart left)"
    inst.info["restarts"] = n + 1
    inst.stop()
    shutil.rmtree(inst.home, ignore_errors=True)
    inst.port = inst.info["port"] = free_port()
    inst.url = f"http://127.0.0.1:{inst.port}"
    log(f"{inst.name}: restart {n + 1} of {MAX_RESTARTS} after: {inst.info['error']}")
    try:
        inst.start()
        warmup(args, inst, pdir)
    except BenchError as e:
        inst.stop()
        inst.info["error"] = f"restart failed: {e}"
        return inst.info["error"]
    del inst.info["error"]
    return None


def measure_point(args, inst, wname, conns, pdir, duration, others=(), rnd=1):
    w = WORKLOADS[wname]
    url = urls(inst.url, w)
    samples = {"threads": [], "rss": [], "heap": None, "end": None}
    # Left out of the thread counts: the JVM's Attach Listener, there since the benchmark's first jcmd.
    listener = attach_listener(inst.pid)
    # The host's state before the load, while every instance is idle (hostprobe: it moves the CPU per answer); taken
    # before the database window opens, which it would only dilute.
    handover0 = hostprobe.measure(getattr(args, "hostprobe", None))
    probe = pgstore.PointProbe(args.pg, inst.url) if args.store == "postgres" else None
    if probe:
        probe.begin()
    cpu0 = proc_cpu_seconds(inst.pid)
    split0 = thread_cpu_split(inst.pid)
    others0 = [proc_cpu_seconds(o.pid) for o in others]
    t0 = time.time()

    def end_of_window():
        """The measured window ends: CPU, threads and the database figures are taken here, before the tail."""
        th, rss = proc_threads_rss(inst.pid)
        th = server_threads(inst.pid, th, listener)
        samples["end"] = dict(t=time.time(), cpu=proc_cpu_seconds(inst.pid), th=th, rss=rss,
                              others=[proc_cpu_seconds(o.pid) for o in others],
                              split=thread_cpu_split(inst.pid), census=thread_census(inst.pid))
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
                    samples["threads"].append(server_threads(inst.pid, th, listener))
                    samples["rss"].append(rss)
            elif samples["end"] is None:
                end_of_window()
            if samples["heap"] is None and now >= gc_at:
                samples["heap"] = heap_after_gc(args.jcmd, inst.pid) or -1
            time.sleep(0.5)

    timeout_s = args.wrk_timeout
    # Files per round whenever a point may have more than one (--rounds, --decisive-rounds, --append).
    multi = args.rounds > 1 or getattr(args, "decisive_rounds", 1) > 1 or getattr(args, "append", None)
    suffix = f"-r{rnd}" if multi else ""
    res = run_wrk(args, url, conns, duration + GC_TAIL_S,
                  os.path.join(pdir, f"{inst.name}-{wname}-c{conns}{suffix}.json"), timeout_s, sampler)
    if samples["end"] is None:  # wrk ended before the window did: take what there is now
        end_of_window()
    wall = samples["end"]["t"] - t0
    cpu1 = samples["end"]["cpu"]
    others1 = samples["end"]["others"]
    others_cpu = sum(b - a for a, b in zip(others0, others1) if a is not None and b is not None)
    th_end = samples["end"]["th"]
    split1 = samples["end"]["split"]
    gc_pct = jit_pct = ""
    if split0 and split1:
        gc_pct = round(100.0 * (split1[0] - split0[0]) / wall, 1)
        jit_pct = round(100.0 * (split1[1] - split0[1]) / wall, 1)
    # Drain: the instance must be idle again (CPU), and a light request must get through (kernel pools queue FIFO).
    d0 = time.time()
    quiet = wait_quiet(inst.pid, DRAIN_TIMEOUT)
    code, _ = http_get(inst.url + "/bin/vt/work.json", timeout=DRAIN_TIMEOUT)
    drain = time.time() - d0
    db = probe.end() if probe else {}
    handover1 = hostprobe.measure(getattr(args, "hostprobe", None))
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
        client_cpu_pct=res.get("client_cpu_pct", ""), gc_cpu_pct=gc_pct, jit_cpu_pct=jit_pct, thread_census=samples["end"]["census"],
        drain_s=(round(drain, 1) if quiet else f"busy after {DRAIN_TIMEOUT} s") if code == 200 else f"probe {code}",
        handover_ns=handover0, handover_ns_after=handover1, **db)
    _, row["thr_note"] = throughput(row)
    log(f"{inst.name} {wname} C={conns}{' round ' + str(rnd) if multi else ''}: {row['rps_steady']} req/s steady ({window_s} s after a {ramp_s} s ramp), "
        f"{row['rps']} over the run (bound {row['little_bound_rps']}){' [' + row['thr_note'] + ']' if row['thr_note'] else ''}, "
        f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms, socket errors {row['socket_errors']}, "
        f"non-2xx {row['non2xx']}, threads {row['threads_max']}, RSS {row['rss_max_mib']} MiB, "
        f"heap {row['heap_after_gc_mib']} MiB, CPU {row['cpu_pct']} % (GC {gc_pct} %, JIT {jit_pct} %; "
        f"idle instances {row['others_cpu_pct']} %, wrk {row['client_cpu_pct']} %), "
        f"drain {row['drain_s']} s, host hand-over {row['handover_ns'] or '-'} / {row['handover_ns_after'] or '-'} ns"
        + (f"; database: {db['db_rt_per_req']} round trips/request, CPU {db['db_cpu_pct']} %, pool active peak "
           f"{db['pool_active_max']}, waiting peak {db['pool_waiting_max']} ({db['pool_samples']} samples)" if db else ""))
    return row
