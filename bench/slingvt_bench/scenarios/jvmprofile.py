"""./sling-vt profile: where the CPU, the allocations and the heap of one configuration go as concurrency grows.

One fresh instance (a benchmark configuration, by default vt-unbounded), warmed up like the benchmark's; then for
each point, in the order given, a load with a JFR recording (settings=profile) and the CPU per answer over the run:
wrk's closed model at N connections, or oha's open model at a fixed rate (N@RATE, what an overload costs); last
a heap census: the class histogram of the idle instance against the one with N requests parked. The report
(profile.md) names the code that uses the CPU by component (the first frame of a sample outside the JDK), the top
allocation sites, the GC pauses and the heap each parked request holds, by class."""
import argparse
import collections
import json
import os
import re
import subprocess
import time

from slingvt_bench.core import overload_rows
from slingvt_bench.core.common import BenchError, free_port, log, run_main, stop_all
from slingvt_bench.core.httpget import get_json
from slingvt_bench.core.rows import fmt
from slingvt_bench.core.setups import CONFIGS, DEFAULT_JVM_OPTS, WORKLOADS, WORK_PATH, plan_cpus
from slingvt_bench.instances import confine
from slingvt_bench.instances.instance import Instance, add_launch_args, check_launch_args
from slingvt_bench.instances.pgstore import ADMIN, HTTP_STATUS
from slingvt_bench.load import overload_oha as ov
from slingvt_bench.load.oha import ensure_oha
from slingvt_bench.load.points import warmup
from slingvt_bench.load.runner import ensure_wrk, run_oha, run_wrk
from slingvt_bench.reports import host_table
from slingvt_bench.samples import hostprobe
from slingvt_bench.samples.sampling import proc_cpu_split, raise_fd_limit, wait_quiet
from slingvt_bench.scenarios.profilepoints import open_rate, parse_points

# The component a sampled top frame belongs to, first match wins (package prefixes).
COMPONENTS = [
    ("Sling VT (ours)", ("io.github.slingvt.",)),
    ("Oak", ("org.apache.jackrabbit.",)),
    ("Sling", ("org.apache.sling.",)),
    ("Jetty", ("org.eclipse.jetty.",)),
    ("Felix / OSGi", ("org.apache.felix.", "org.osgi.")),
    ("virtual thread scheduling (JDK)", ("jdk.internal.vm.", "java.lang.VirtualThread", "java.util.concurrent.ForkJoin")),
    ("JSON / logging", ("com.fasterxml.", "ch.qos.logback.", "org.slf4j.")),
    ("crypto (the workload's SHA-256)", ("sun.security.", "java.security.")),
    ("network I/O (JDK)", ("sun.nio.", "java.nio.", "java.net.")),
    ("other JDK", ("java.", "jdk.", "sun.")),
]
PARK_DELAY_MS = 30000


def component(frame):
    return next((name for name, prefixes in COMPONENTS if frame.startswith(prefixes)), "other")


JDK = ("java.", "jdk.", "sun.")


def frame_name(frame):
    m = frame["method"]
    return f"{m['type']['name'].replace('/', '.')}.{m['name']}"


def attribute(frames):
    """(component, label) of one sample: the component of the first frame, from the top, outside the JDK (the code
    that called into it), so that a JDK top frame (a lock, a queue, a counter) counts for its caller."""
    names = [frame_name(f) for f in frames]
    caller = next((n for n in names if not n.startswith(JDK)), None)
    label = names[0] if caller is None or caller == names[0] else f"{names[0]} <- {caller}"
    return component(caller or names[0]), label


def cpu_by_component(jfr, recording):
    """Execution samples by component (see attribute): {component: share}, the top labels, the sample count."""
    out = subprocess.run([jfr, "print", "--json", "--stack-depth", "24", "--events", "jdk.ExecutionSample",
                          recording], capture_output=True, text=True, timeout=300).stdout
    labels = collections.Counter()
    comps = collections.Counter()
    for ev in json.loads(out or "{}").get("recording", {}).get("events", []):
        st = (ev.get("values", {}).get("stackTrace") or {}).get("frames") or []
        if st:
            comp, label = attribute(st)
            comps[comp] += 1
            labels[label] += 1
    total = sum(comps.values()) or 1
    return {k: v / total for k, v in comps.most_common()}, labels.most_common(15), total


def jfr_view(jfr, view, recording, width=160):
    return subprocess.run([jfr, "view", "--width", str(width), view, recording], capture_output=True, text=True,
                          timeout=300).stdout.strip()


def histogram(jcmd, pid):
    """GC.class_histogram (it runs a full GC first): {class: (instances, bytes)}."""
    return parse_histogram(subprocess.run([jcmd, str(pid), "GC.class_histogram"], capture_output=True, text=True,
                                          timeout=120).stdout)


def parse_histogram(text):
    """ " num     #instances         #bytes  class name (module)" rows -> {class: (instances, bytes)}."""
    return {m.group(3): (int(m.group(1)), int(m.group(2)))
            for m in re.finditer(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", text, re.M)}


def in_flight(inst):
    s = get_json(inst.url + HTTP_STATUS, 10, auth=ADMIN)
    return int((s or {}).get("inFlight", 0))


def heap_per_parked(args, inst, pdir):
    """Class histogram with N requests parked minus the idle one, per parked request. The idle one is taken once the
    instance is quiet: right after a load, closing connections still hold buffers."""
    wait_quiet(inst.pid, 120)
    time.sleep(5)
    idle = histogram(args.jcmd, inst.pid)
    url = f"{inst.url}{WORK_PATH}?idleDelay={PARK_DELAY_MS}"
    parked = {}

    def sampler(_proc):
        deadline = time.time() + PARK_DELAY_MS / 1000.0 - 5
        while time.time() < deadline and in_flight(inst) < args.park * 0.95:
            time.sleep(0.5)
        parked["n"] = in_flight(inst)
        parked["h"] = histogram(args.jcmd, inst.pid)

    run_wrk(args, url, args.park, PARK_DELAY_MS // 1000 + 5, os.path.join(pdir, f"park{args.park}.json"),
            PARK_DELAY_MS // 1000 + 30, sampler)
    n = parked.get("n") or 0
    if n < 1:
        raise BenchError(f"no request was parked (in flight {n})")
    diff = {k: (parked["h"][k][0] - idle.get(k, (0, 0))[0], parked["h"][k][1] - idle.get(k, (0, 0))[1])
            for k in parked["h"]}
    grown = sum(b for _, b in diff.values() if b > 0)  # caches may shrink meanwhile: count what grew
    top = sorted(diff.items(), key=lambda kv: -kv[1][1])[:15]
    return n, grown, top


def open_load(args, url, conns, rate, name, pdir):
    """oha at rate with conns connections for --duration s, client timeout --timeout s: (2xx answers, in time,
    the client's CPU %)."""
    db = os.path.join(pdir, name + ".db")
    if os.path.exists(db):
        os.remove(db)  # oha appends to an existing table
    cmd = ov.command(args.oha, url, rate, conns, args.duration, args.timeout, db)
    usage = {}
    summary = run_oha(args, cmd, args.duration, os.path.join(pdir, name + ".oha.json"), usage)
    cats = ov.categories(summary, ov.read_db(db), args.timeout, args.duration)
    return cats["ok_in_time"] + cats["ok_late"], cats["ok_in_time"], usage.get("client_cpu_pct")


def profile_point(args, inst, wname, index, conns, rate, pdir):
    w = WORKLOADS[wname]
    url = f"{inst.url}{w.get('path', WORK_PATH)}?{w['params']}"
    name = f"{wname}-{index}-c{conns}" + (f"-q{rate:g}" if rate else "")
    rec = os.path.join(pdir, name + ".jfr")
    wait_quiet(inst.pid, 120)  # after the warm-up the JIT may still compile: the probe is taken idle, as bench's
    probe_before = hostprobe.measure(args.hostprobe)
    subprocess.run([args.jcmd, str(inst.pid), "JFR.start", "name=slingvt-profile", "settings=profile",
                    f"filename={rec}"], capture_output=True, timeout=60, check=True)
    (user0, sys0), t0 = proc_cpu_split(inst.pid), time.time()
    if rate:
        ok, in_time, client = open_load(args, url, conns, rate, name, pdir)
    else:
        res = run_wrk(args, url, conns, args.duration, os.path.join(pdir, name + ".wrk.json"), 60)
        ok = in_time = res["requests"] - res["errors"]["status"]
        client = res.get("client_cpu_pct")
    # After the load: requests still queued or running when the client stopped end now, and their CPU counts.
    wait_quiet(inst.pid, 120)
    (user1, sys1), wall = proc_cpu_split(inst.pid), time.time() - t0
    cpu0, cpu1 = user0 + sys0, user1 + sys1
    subprocess.run([args.jcmd, str(inst.pid), "JFR.stop", "name=slingvt-profile"], capture_output=True, timeout=120)
    probe = host_table.cell(probe_before, hostprobe.measure(args.hostprobe))
    comps, frames, samples = cpu_by_component(args.jfr, rec)
    log(f"{name}: {ok} answers ({in_time} in time), {(cpu1 - cpu0) * 1000 / max(ok, 1):.2f} ms CPU each, "
        f"{samples} samples")
    return dict(workload=wname, c=conns, rate=rate, ok=ok, in_time=in_time, rps=ok / args.duration, client=client,
                probe=probe, sys_share=(sys1 - sys0) / max(cpu1 - cpu0, 1e-9), cpu_ms=(cpu1 - cpu0) * 1000 / max(ok, 1),
                cpu_pct=100 * (cpu1 - cpu0) / wall, comps=comps, frames=frames, samples=samples,
                gc_pauses=jfr_view(args.jfr, "gc-pauses", rec), gc_cpu=jfr_view(args.jfr, "gc-cpu-time", rec),
                alloc=jfr_view(args.jfr, "allocation-by-site", rec, 200))


def label(point):
    if not point["rate"]:
        return "closed (wrk)"
    share = f", {100 * point['share']:g} % of the last closed point's" if point.get("share") else ""
    return f"{point['rate']:g}/s (oha{share})"


def markdown(args, points, park):
    L = [f"# Profile of {args.config}, {args.workload} (`./sling-vt profile`)\n",
         f"One instance, `{args.jvm_opts}`, warm-up {args.warmup} s, {args.duration} s of load per point on the "
         "same 2 cores, in this order: wrk's closed model at C connections, or oha's open model at a fixed rate "
         f"(client timeout {args.timeout} s); CPU per answer = process CPU ÷ successful answers, from the start of "
         "the load until the instance is quiet again (ramp and drain included); the host's hand-over latency "
         "(bench/hostprobe.c) idle before / after the point, `*` where the host changed state during it.\n",
         "| C | load | answers/s | in time/s | CPU % | of it in the kernel | ms CPU per answer | "
         "client CPU (% of one CPU) | host hand-over, ns | JFR samples |",
         "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    L += [f"| {p['c']:,} | {label(p)} | {p['rps']:,.0f} | {p['in_time'] / args.duration:,.0f} | {p['cpu_pct']:.0f} | "
          f"{100 * p['sys_share']:.0f} % | {p['cpu_ms']:.2f} | {fmt(p.get('client'), 1)} | {p['probe']} | "
          f"{p['samples']:,} |" for p in points]
    names = [n for n, _ in COMPONENTS] + ["other"]
    L += ["\n## CPU by component (JFR execution samples, by the first frame outside the JDK)\n",
          "| component | " + " | ".join(f"{i + 1}: C={p['c']:,}" for i, p in enumerate(points)) + " |",
          "|---|" + "---:|" * len(points)]
    for n in names:
        if any(p["comps"].get(n) for p in points):
            L.append(f"| {n} | " + " | ".join(f"{100 * p['comps'].get(n, 0):.1f} %" for p in points) + " |")
    for i, p in enumerate(points):
        L += [f"\n## {i + 1}: C = {p['c']:,}, {label(p)}\n",
              "Top frames, with the first caller outside the JDK (samples):\n", "```"]
        L += [f"{n:6d}  {f}" for f, n in p["frames"]]
        L += ["```", "\nGC pauses:\n", "```", p["gc_pauses"], "```", "\nGC CPU time:\n", "```", p["gc_cpu"], "```",
              "\nAllocation by site:\n", "```", "\n".join(p["alloc"].splitlines()[:25]), "```"]
    if park:
        n, total, top = park
        L += [f"\n## Heap per parked request ({n:,} parked for {PARK_DELAY_MS // 1000} s)\n",
              f"Live heap after full GC, the classes that grew from idle to parked: {total / 1048576:.0f} MiB, "
              f"{total / n / 1024:.1f} KiB per parked request (classes that shrank, caches above all, left out).\n",
              "| class | instances per request | bytes per request |", "|---|---:|---:|"]
        L += [f"| `{k}` | {i / n:.1f} | {b / n:,.0f} |" for k, (i, b) in top]
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(prog="./sling-vt profile", description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="vt-unbounded", help="a benchmark configuration: " + ", ".join(CONFIGS))
    ap.add_argument("--workload", default="R1s", help="a benchmark workload: " + ", ".join(WORKLOADS))
    ap.add_argument("--concurrency", default="1000,8000",
                    help="comma-separated points, in order: N (wrk, N connections), N@RATE (oha at RATE requests/s "
                         "over N connections, the open model) or N@PERCENT%% (oha at that share of the answers a "
                         "second of the last closed point before it)")
    ap.add_argument("--duration", type=int, default=30, help="seconds of load per concurrency")
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--timeout", type=int, default=overload_rows.TIMEOUT_S,
                    help=f"open-model points: the client's timeout per request, seconds (default {overload_rows.TIMEOUT_S})")
    ap.add_argument("--park", type=int, default=4000, help="requests to park for the heap census (0: none)")
    ap.add_argument("--out", help="output folder (default .sling-vt/profile/<time>)")
    ap.add_argument("--jvm-opts", default=DEFAULT_JVM_OPTS)
    ap.add_argument("--feature", choices=["starter", "lean"], default="starter")
    ap.add_argument("--no-build", action="store_true", help="(read by ./sling-vt) use the assembled feature")
    add_launch_args(ap)
    args = ap.parse_args()
    if args.config not in CONFIGS or args.workload not in WORKLOADS:
        raise BenchError(f"unknown --config {args.config} or --workload {args.workload}")
    if not 0 <= args.park <= 20000 or args.duration < 5:
        raise BenchError("--park takes 0 to 20000, --duration at least 5")
    if args.timeout < 1:
        raise BenchError("--timeout takes at least 1 s")
    conc = parse_points(args.concurrency)
    args.store, args.pool_max, args.no_pin, args.pin, args.wrk_threads = "segment", None, False, False, 2
    check_launch_args(args, "profile")
    args.jfr = os.path.join(args.java_home, "bin", "jfr")
    args.wrk, args.hostprobe = ensure_wrk(), hostprobe.build(args.root)
    if any(rate or share for _, rate, share in conc):
        args.oha = ensure_oha(args.root, log)
    raise_fd_limit()
    confine.plan(args, plan_cpus(args))
    out = os.path.abspath(args.out or os.path.join(args.root, ".sling-vt", "profile", time.strftime("%Y%m%d-%H%M%S")))
    pdir = os.path.join(out, "raw")
    os.makedirs(pdir, exist_ok=True)
    inst = Instance(args, args.config, os.path.join(out, "instance"), free_port())
    try:
        inst.start()
        warmup(args, inst, pdir)
        points, closed_rps = [], 0.0
        for i, (c, rate, share) in enumerate(conc):
            points.append(profile_point(args, inst, args.workload, i + 1, c, open_rate(i + 1, rate, share, closed_rps),
                                        pdir))
            closed_rps = closed_rps if points[-1]["rate"] else points[-1]["rps"]
            points[-1]["share"] = share
        park = heap_per_parked(args, inst, pdir) if args.park else None
    finally:
        inst.stop()
        stop_all()
    with open(os.path.join(out, "profile.md"), "w") as f:
        f.write(markdown(args, points, park))
    log(f"done: {out}/profile.md")
    return 0


def run():
    return run_main(main, "profile")
