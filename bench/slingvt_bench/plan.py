"""What is measured: the configurations, the workloads, the full and quick plans, the duration of a point and
the CPU pinning of server and load generator."""
import os

from .common import BenchError


HTTP_PID = "io.github.slingvt.http.VirtualThreads"
FELIX_HTTP_PID = "org.apache.felix.http"

# name -> (description, files to put into <home>/launcher/install before start, expected request thread)
# 'virtual' in the expectation is what /bin/vt/work.json reports as thread.virtual; 'ours' says whether our
# HTTP bundle must be installed on Felix's Jetty (True) or must have left it alone (False).
CONFIGS = {
    "kernel-200": dict(
        desc="Sling VT kernel mode, kernelMaxThreads 200 (Jetty's default pool size): 200 requests at once, Jetty's "
             "QueuedThreadPool has the connectors' threads and 2 spare beside them (decision 0030)",
        cfg={HTTP_PID: {"mode": "kernel", "kernelMaxThreads": 200}}, virtual=False, ours=True),
    "kernel-1000": dict(
        desc="Sling VT kernel mode, kernelMaxThreads 1000 (fibers-server's baseline): 1000 requests at once",
        cfg={HTTP_PID: {"mode": "kernel", "kernelMaxThreads": 1000}}, virtual=False, ours=True),
    "felix-virtual": dict(
        desc="Felix jetty12's own org.apache.felix.http.jetty.virtualthreads.enable=true; Sling VT leaves Jetty alone",
        cfg={FELIX_HTTP_PID: "FELIX"}, virtual=True, ours=False),
    "vt-unbounded": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=0 (unbounded)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True),
    "vt-unbounded-twin": dict(
        desc="a second vt-unbounded instance, identical: the A/A control that shows this machine's run-to-run noise "
             "(not in the full run; use it with --configs and --rounds)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True),
    "vt-no-detector": dict(
        desc="vt-unbounded with the JFR pinning detector switched off (io.github.slingvt.http.PinningDetector "
             "enabled=false): the detector's cost is vt-no-detector : vt-unbounded",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0},
             "io.github.slingvt.http.PinningDetector": {"enabled": False}}, virtual=True, ours=True,
        # A cost would show where the CPU is the limit; the waiting workloads would only add run time.
        workloads=["R10ms", "repo200"]),
    "vt-bounded": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=10000 (above every tested concurrency)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 10000, "maxQueuedRequests": 10000}},
        virtual=True, ours=True),
    "vt-adaptive": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=auto (admission by the carriers: 0.9 x the running requests, "
             "never below those waiting off the carriers + 2 per carrier, while carriers and CPU are saturated, "
             "doubling with headroom, a ninth up with some room (CPU 85-95 %), 20..10000, starts at 200; FIFO queue "
             "up to clientTimeout 60 s, abandoned clients dropped, adaptive LIFO once waiting clients keep leaving)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": "auto"}}, virtual=True, ours=True),
    "vt-adaptive-twin": dict(
        desc="a second vt-adaptive instance, identical: the A/A control of the full run (the machine's run-to-run "
             "noise, measured on the configuration that is judged)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": "auto"}}, virtual=True, ours=True),
    # Jetty's per-connection header cache (decision 0029): the default with Felix's (Jetty's) 1,024 entries per
    # connection instead of none, so that an A/B of one sitting (--overload-rounds) says what the cache buys or costs.
    "vt-adaptive-jetty-cache": dict(
        desc="vt-adaptive with connectionHeaderCache=-1: Felix's (Jetty's) header cache of 1,024 entries, about 96 KB "
             "per keep-alive HTTP/1 connection, instead of none; vt-adaptive : vt-adaptive-jetty-cache is what "
             "going without it costs or saves",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": "auto", "connectionHeaderCache": -1}},
        virtual=True, ours=True),
    # Adaptive admission that never runs fewer requests at once than Jetty's default pool (adaptiveMinLimit=200, the
    # floor the CPU-load signal of JDK 21-23 already has): what the step-down below a pool's concurrency costs or saves.
    "vt-adaptive-floor-200": dict(
        desc="vt-adaptive with adaptiveMinLimit=200: the limit never falls below the 200 requests Jetty's default "
             "pool runs at once",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": "auto", "adaptiveMinLimit": 200}},
        virtual=True, ours=True),
    # Adaptive admission with clients that give up after 10 s (the overload points' client timeout) as its patience.
    "vt-adaptive-queue": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=auto with clientTimeout=10 s (maxQueuedRequests 10000)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": "auto", "clientTimeout": 10}}, virtual=True,
        ours=True),
    # The GC of the JVM (issue #13: G1 against generational ZGC), same heap: "gc" replaces the collector of --jvm-opts.
    "vt-unbounded-zgc": dict(
        desc="vt-unbounded on generational ZGC instead of G1 (same heap size)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True, gc="zgc"),
    "vt-unbounded-6g": dict(
        desc="vt-unbounded with a 6 GiB heap instead of 2 GiB (G1; what ./sling-vt run's JVM may grow to on a 24 GiB "
             "machine: a quarter of the memory)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0}}, virtual=True, ours=True, heap="6g"),
    "kernel-200-zgc": dict(
        desc="kernel-200 on generational ZGC instead of G1 (same heap size)",
        cfg={HTTP_PID: {"mode": "kernel", "kernelMaxThreads": 200}}, virtual=False, ours=True, gc="zgc"),
    "vt-jetty-10": dict(
        desc="vt-unbounded with Jetty's virtual-mode pool as it was before 2026-11-25 (virtualModePlatformThreads=10, "
             "Jetty's minimum 8): vt-unbounded : vt-jetty-10 is what the smaller pool (leases + 2) costs or saves",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 0, "virtualModePlatformThreads": 10}},
        virtual=True, ours=True),
    "vt-cap-100": dict(
        desc="Sling VT virtual mode, maxConcurrentRequests=100 with a queue that holds every client "
             "(maxQueuedRequests=10000, queueTimeout=60 s): a cap sized against a JDBC pool (--store postgres)",
        cfg={HTTP_PID: {"mode": "virtual", "maxConcurrentRequests": 100, "maxQueuedRequests": 10000,
                        "queueTimeout": 60000}},
        virtual=True, ours=True),
}

# Workloads on /bin/vt/work.json (or on their "path"). R is the nominal latency; idleDelay is ~99.5 % of it, the rest repository
# reads and SHA-256 rounds (plus Sling's own request handling). The measured p50 is reported next to R.
WORKLOADS = {
    "R10ms": dict(r_ms=10, params="reads=1&cpuIterations=5&idleDelay=10",
                  desc="R = 10 ms: idleDelay 10 ms, 1 read, 5 SHA-256 rounds"),
    "R100ms": dict(r_ms=100, params="reads=5&cpuIterations=50&idleDelay=99",
                   desc="R = 100 ms: idleDelay 99 ms, 5 reads, 50 SHA-256 rounds"),
    "R1s": dict(r_ms=1000, params="reads=20&cpuIterations=200&idleDelay=995",
                desc="R = 1 s: idleDelay 995 ms, 20 reads, 200 SHA-256 rounds"),
    "repo200": dict(r_ms=100, params="reads=200&cpuIterations=50&idleDelay=90",
                    desc="repository-heavy: 200 reads, 50 SHA-256 rounds, idleDelay 90 ms (R about 100 ms)"),
}

# Measured at C = 4,000 only (EXTRA_POINTS): what 4,000 parked requests cost in OS threads and RSS.
# On the PostgreSQL store (--store postgres) only: reads that wait for the database instead of for idleDelay.
WORKLOADS["cold50"] = dict(r_ms=0, params="reads=50&cpuIterations=50", store="postgres",
                            desc="cold reads: 50 reads of the demo tree with Oak's caches too small to hold it (16 MB, "
                                 "no persistent node cache), so most reads are PostgreSQL round trips; no idleDelay, "
                                 "no nominal R")

WORKLOADS["park10s"] = dict(r_ms=10000, params="idleDelay=10000",
                            desc="parked: idleDelay 10 s, no reads (measured at C = 4,000 only: OS threads and RSS)")

# On the starter feature only (the default): the demo application's HTL page, whose Sling Model reads 20 item nodes
# and waits 100 ms on its downstream call; what a Sling page costs beside a JSON servlet.
WORKLOADS["page"] = dict(r_ms=100, path="/content/vt-demo/page.html", params="reads=20&delay=100", feature="starter",
                         desc="rendered page: HTL component + Sling Model, 20 item reads, 100 ms downstream wait")

WORK_PATH = "/bin/vt/work.json"
EXTRA_POINTS = [("park10s", 4000)]

WARMUP_PARAMS = "reads=20&cpuIterations=50&idleDelay=5"

# The virtual setup judged as the default (maxConcurrentRequests=auto, issue #27): the targets judge it, and its close
# points get the decisive rounds.
DEFAULT_VIRTUAL = "vt-adaptive"

# The A/A pair: two identical instances whose difference at a point is the machine's noise there (a ratio within it
# is "undecided"). The full run twins the judged configuration; the PostgreSQL runs and the runs before 2026-11-26
# twin vt-unbounded (aa_pair picks whichever pair a run measured).
# The configuration the open model and the overload derive their rates from and judge the default against:
# Jetty's default pool size.
REFERENCE = "kernel-200"
AA = ("vt-adaptive", "vt-adaptive-twin")
AA_UNBOUNDED = ("vt-unbounded", "vt-unbounded-twin")


# The safe default keeps unbounded's wins: auto >= KEPT_GOAL x vt-unbounded on these workloads from C = 1,000.
KEPT_WINS = ("R100ms", "R1s")
KEPT_GOAL = 0.97


def serves(config, workload):
    """Whether a configuration runs this workload (a configuration may name the only workloads it runs)."""
    return workload in CONFIGS[config].get("workloads", [workload])


def phase_configs(args, plan, key, names):
    """The configurations a phase drives: the plan's narrower list under key (open_configs, overload_configs) unless
    --configs named the configurations."""
    only = plan.get(key) if not getattr(args, "configs", None) else None
    return [n for n in names if not only or n in only]


def phase_instances(args, plan, key, live):
    """The instances of phase_configs."""
    names = phase_configs(args, plan, key, [i.name for i in live])
    return [i for i in live if i.name in names]


def aa_pair(configs):
    """The A/A pair of a run that measured these configurations."""
    return AA if all(c in configs for c in AA) else AA_UNBOUNDED


# The warm-up is 60 s: on a 2-core machine whose CPU is slow, 30 s left the JIT compiling through the first points.
# Issue #27 judges auto against the two kernel pools and unbounded, with auto's twin as the A/A control; Felix's own
# virtual threads (felix-virtual) were judged in full-2026-11-25b and are left out so that the run fits one sitting
# (at most about 2 h 46 min on 2 cores, see estimate.py). The open model below capacity runs kernel-200, unbounded,
# auto and its twin (open_configs), the overload the reference and auto with its twin (overload_configs):
# unbounded's collapse there is in auto-2026-11-25. 12 s per closed point, 15 s per open point. Up to 7 closed
# points and 3 overload points whose verdict one round cannot settle, and every open-model point, get 3 rounds (verdicts,
# open_rounds and overload_decisive.decisive_points; each with the configurations its targets compare,
# verdicts.decisive_configs and open_rounds.COMPARED); five closed points left repo200 C = 100 (0.93x, the twins
# +-3 %) on one round in full-2026-11-28b.
FULL = dict(configs=["kernel-200", "kernel-1000", "vt-unbounded", "vt-adaptive", "vt-adaptive-twin"],
            workloads=["R10ms", "R100ms", "R1s", "repo200", "page"], concurrency=[100, 1000, 4000, 8000], extra=[],
            warmup=60, duration=12, pause=1, decisive_rounds=3, decisive_points=7, open_duration=15,
            open_decisive_rounds=3, open_decisive_points=10,
            open_configs=["kernel-200", "vt-unbounded", "vt-adaptive", "vt-adaptive-twin"],
            overload_configs=["kernel-200", "vt-adaptive", "vt-adaptive-twin"], overload_decisive_rounds=3,
            overload_decisive_points=3)

QUICK = dict(configs=["kernel-200", "vt-unbounded"], workloads=["R100ms", "R1s"],
             concurrency=[100, 1000], extra=[], warmup=15, duration=20, pause=2)

# --store postgres (issue #12): the four request-thread configurations on the cold-read workload and R = 100 ms, plus
# the A/A twin that says which differences are this machine's noise.
FULL_POSTGRES = dict(configs=["kernel-200", "kernel-1000", "vt-unbounded", "vt-unbounded-twin", "vt-bounded"],
                     workloads=["cold50", "R100ms"], concurrency=[100, 1000, 4000], extra=[], warmup=30, duration=20,
                     pause=1)

# --latency: cold reads where the pool's threads wait for the network, below, at and above its 200 threads; an A/A twin
# decides "virtual ahead". No open-model or overload phase: one run per latency.
LATENCY_POSTGRES = dict(configs=["kernel-200", "vt-unbounded", "vt-unbounded-twin"], workloads=["cold50"],
                        concurrency=[100, 400, 1000], extra=[], warmup=15, duration=20, pause=2)

QUICK_POSTGRES = dict(configs=["kernel-200", "vt-unbounded"], workloads=["cold50"], concurrency=[100, 1000],
                      extra=[], warmup=15, duration=20, pause=2)

DEFAULT_JVM_OPTS = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseG1GC"

# JVM options that select a collector; a configuration's "gc" replaces them. JDK 21-22 need ZGenerational for the
# generational ZGC (JDK 23 made it the default, JDK 24 removed the old mode and the flag with it).
GC_FLAGS = {"g1": ["-XX:+UseG1GC"], "zgc": ["-XX:+UseZGC"], "zgc-21": ["-XX:+UseZGC", "-XX:+ZGenerational"]}


def jvm_opts_for(opts, gc, java_feature, heap=None):
    """--jvm-opts with the collector of a configuration's "gc" and its fixed heap size "heap" (None: as given)."""
    kept = opts.split()
    if heap:
        kept = [o for o in kept if not o.startswith(("-Xms", "-Xmx"))] + [f"-Xms{heap}", f"-Xmx{heap}"]
    if gc:
        kept = [o for o in kept if not (o.startswith("-XX:+Use") and o.endswith("GC")) and "ZGenerational" not in o]
        kept += GC_FLAGS["zgc-21" if gc == "zgc" and java_feature and java_feature < 23 else gc]
    return " ".join(kept) if (gc or heap) else opts
MAX_RAMP_S = 40  # longest extension of a point for its ramp (C / throughput of the previous point)
# Where the ramp is expected to outlast the measured seconds, the previous point's throughput is no safe guess: from
# C = 4,000 to 8,000 repo200 fell from about 440 to 300/s in full-2026-12-02c, its C = 8,000 points ran 30-34 s for
# a ramp of 27-35 s, and none of the 12 had a steady window (the whole-run rate, ramp included, judged them).
LONG_RAMP_MARGIN = 2

GC_TAIL_S = 4  # seconds the load runs on after the measured window, for the full GC of the heap figure
STARTUP_TIMEOUT = 300
READINESS_HOLD_S = 1.0  # systemready must stay green this long before the first Sling request (instances.py)

SEED_TIMEOUT = 180
DRAIN_TIMEOUT = 120


def point_duration(args, rows, name, wname, conns):
    """The measured seconds plus the expected ramp (C / throughput at the previous C of this configuration), twice
    that where it is longer than the measured seconds (LONG_RAMP_MARGIN), at most MAX_RAMP_S."""
    r_s = -(-WORKLOADS[wname]["r_ms"] // 1000)
    # Rows of an earlier invocation (--append) come from results.csv as text.
    prev = [r for r in rows if r["config"] == name and r["workload"] == wname and int(r["concurrency"]) < conns
            and r.get("rps_steady")]
    ramp = r_s
    if prev:
        best = max(prev, key=lambda r: int(r["concurrency"]))
        ramp = max(ramp, -(-conns // max(1, int(float(best["rps_steady"])))))
    if ramp > args.duration:
        ramp *= LONG_RAMP_MARGIN
    return args.duration + min(MAX_RAMP_S, ramp)


def plan_cpus(args):
    """Disjoint CPUs for server and wrk when there are at least 4 (wrk gets a quarter), or with --pin on 2-3.

    On 2 CPUs disjoint pinning leaves the server one core (and the JVM sizes GC, carrier and selector threads for
    one CPU), while wrk needs a fraction of a core at these request rates; so by default both share the CPUs there.
    """
    cpus = sorted(os.sched_getaffinity(0))
    args.server_cpus = args.load_cpus = None
    if len(cpus) < 2:
        return "not pinned (one CPU)"
    if args.no_pin:
        return "not pinned (--no-pin)"
    if len(cpus) < 4 and not args.pin:
        return (f"not pinned ({len(cpus)} CPUs: disjoint pinning would leave the server {len(cpus) - 1}; "
                "--pin forces it)")
    n_load = max(1, len(cpus) // 4)  # the load generator gets a quarter, at least one CPU
    args.load_cpus = set(cpus[-n_load:])
    args.server_cpus = set(cpus[:-n_load])
    return f"server on CPU {sorted(args.server_cpus)}, wrk on CPU {sorted(args.load_cpus)} (taskset-style affinity)"


def add_decisive_args(ap, phase, kind, after, chosen, full_points):
    """--PHASE-decisive-rounds and --PHASE-decisive-points of a phase whose close points get more rounds."""
    ap.add_argument(f"--{phase}-decisive-rounds", type=int,
                    help=f"after {after}, measure {chosen} until they have this many rounds (full run: 3; else 1)")
    ap.add_argument(f"--{phase}-decisive-points", type=int,
                    help=f"at most this many {kind} points get those rounds, closest to their goal first (full "
                         f"run: {full_points})")


def check_decisive_args(args, plan, phase, default_points):
    """The plan's values where the options were not given; a clear error for values that make no sense."""
    rounds, points = f"{phase}_decisive_rounds", f"{phase}_decisive_points"
    if getattr(args, rounds) is None:
        setattr(args, rounds, plan.get(rounds, 1))
    if getattr(args, points) is None:
        setattr(args, points, plan.get(points, default_points))
    if getattr(args, rounds) < 1 or getattr(args, points) < 0:
        raise BenchError(f"--{phase}-decisive-rounds must be 1 or more, --{phase}-decisive-points 0 or more")
