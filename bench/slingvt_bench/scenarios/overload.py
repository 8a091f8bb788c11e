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
starts is stopped by PID (common.RUNNING / stop_all), every wait is bounded, all traffic goes to 127.0.0.1.
"""
import argparse
import asyncio
import json
import os
import shutil
import signal
import time

from slingvt_bench.core.common import BenchError, free_port, log, on_signal, pid_alive, run_main, stop_all
from slingvt_bench.core.httpget import http_get
from slingvt_bench.core.setups import FELIX_HTTP_PID, HTTP_PID
from slingvt_bench.instances.instance import add_launch_args, check_launch_args, prune_instance_home, snapshot_feature
from slingvt_bench.samples.sampling import machine_info, proc_threads_rss, raise_fd_limit
from slingvt_bench.scenarios.overload_clients import bounded_load, heap_info, unbounded_load
from slingvt_bench.scenarios.overload_instance import OverloadInstance, Sampler
from slingvt_bench.scenarios.overload_report import markdown
from slingvt_bench.scenarios.slow_clients import probe_idle_timeout, slow_load


BOUNDED = dict(cap=200, queue=200, queue_timeout=1000, retry_after=1, clients=2000, duration=60,
               path="/bin/vt/work.json?reads=20&fileLength=4194304&idleDelay=500", xmx="-Xmx512m")


UNBOUNDED = dict(target=19000, batch=1000, idle_delay=60000, fd_reserve=600, xmx="-Xmx1g")


SLOW = dict(idle_timeout_ms=5000, slow=1000, slow_trickle_s=7.0, margin_s=20.0, fast=50, fast_trickle_s=1.0,
            fast_observe_s=60.0, big=5, big_bytes=1000, big_observe_s=60.0)


QUICK = dict(bounded=dict(clients=400, cap=40, queue=40, duration=15), unbounded=dict(target=2000),
             slow=dict(slow=200, fast=10, fast_observe_s=15.0, big_observe_s=30.0))


def run_bounded(args, out, cfg):
    configs = {HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": cfg["cap"], "maxQueuedRequests": cfg["queue"],
                          "queueTimeout": cfg["queue_timeout"], "retryAfterSeconds": cfg["retry_after"]}}
    inst = OverloadInstance(args, "bounded", os.path.join(out, "instances", "bounded"), free_port(),
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
        normal = [http_get(inst.url + "/bin/vt/work.json?reads=5", timeout=30)[0] for _ in range(5)]
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
                       alive=pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
                       error_entries=inst.error_entries()[:10]),
                   accounting=dict(admitted_delta=d_adm, rejected_delta=d_rej, status_requests=status_requests))
    except BenchError as e:
        res["error"] = str(e)
        log(f"bounded: {e}")
    finally:
        inst.stop()
    return res


def run_unbounded(args, out, cfg, fd_limit):
    configs = {HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}
    inst = OverloadInstance(args, "unbounded", os.path.join(out, "instances", "unbounded"), free_port(),
                            f"{cfg['xmx']} -XX:+UseG1GC", configs, "Max concurrent requests: unbounded")
    res = dict(config=cfg, instance=inst.info)
    try:
        inst.start()
        idle_fds = inst.fd_count() or 0
        # Server: its own files + one socket per parked request; client (this process): one socket each.
        n = min(cfg["target"], fd_limit - idle_fds - cfg["fd_reserve"], fd_limit - 200)
        t, r = proc_threads_rss(inst.pid)
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
                               alive=pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
                               error_entries=inst.error_entries()[:10]))
    except BenchError as e:
        res["error"] = str(e)
        log(f"unbounded: {e}")
    finally:
        inst.stop()
    return res


def run_slow(args, out, cfg):
    port = free_port()
    configs = {FELIX_HTTP_PID: {"org.apache.felix.http.host": "127.0.0.1", "org.osgi.service.http.port": port,
                                "org.apache.felix.jetty.relativeredirectallowed": False,
                                "org.apache.felix.http.jetty.virtualthreads.enable": False,
                                "org.apache.felix.http.timeout": cfg["idle_timeout_ms"]}}
    inst = OverloadInstance(args, "slowloris", os.path.join(out, "instances", "slowloris"), port,
                            "-Xmx1g -XX:+UseG1GC", configs, "Max concurrent requests: auto")  # the default
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
            alive=pid_alive(inst.pid), oom_in_logs=inst.oom_mentions(),
            error_entries=inst.error_entries()[:10]))
    except BenchError as e:
        res["error"] = str(e)
        log(f"slowloris: {e}")
    finally:
        inst.stop()
    return res


def main():
    ap = argparse.ArgumentParser(prog="./sling-vt overload", description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="output folder (default .sling-vt/overload/<timestamp>)")
    ap.add_argument("--only", help="comma-separated subset of: bounded, unbounded, slowloris")
    ap.add_argument("--quick", action="store_true", help="smaller sizes (about 4 min): for trying the script")
    ap.add_argument("--no-build", action="store_true", help="(read by ./sling-vt) use the assembled feature as it is")
    add_launch_args(ap)
    args = ap.parse_args()
    check_launch_args(args, "overload")
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
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    fd_limit = raise_fd_limit()
    snapshot_feature(args, out)
    args.wrk = "true"  # machine_info asks wrk for its version; no wrk is used here
    machine = machine_info(argparse.Namespace(**dict(vars(args), jvm_opts="per scenario", wrk_threads=None,
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
        stop_all()
    # Keep logs and the installed configuration; drop repositories, caches, access logs and the feature copy.
    for name in ("bounded", "unbounded", "slowloris"):
        prune_instance_home(os.path.join(out, "instances", name))
    shutil.rmtree(os.path.join(out, "feature"), ignore_errors=True)
    save()
    log(f"done in {results['elapsed_s']} s: {out}/results.md, results.json")
    return 0


def run():
    return run_main(main, "overload")
