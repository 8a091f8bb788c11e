"""What is measured: the configurations, the workloads, the full and quick plans, the duration of a point and
the CPU pinning of server and load generator."""
import os



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
        desc="Sling VT virtual mode, maxConcurrentRequests=auto (admission by the carriers, judged every 0.5 s: a "
             "standing runnable queue beyond one per carrier cuts the limit to the waits + 2 per carrier + the "
             "square root of the waits, room with requests waiting doubles it, 20..1000000, starts at 200; FIFO "
             "queue up to clientTimeout 60 s, newest first while it stands over 100 ms and grows)",
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
    # Adaptive admission whose queue times out after 10 s (the overload points' client timeout).
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

# On the starter feature only: one stream of two kinds of request, picked at random one for one, page renders without
# a downstream wait (CPU-bound) and calls that wait a second (issue #85: a law that reads the right signal serves
# both). Its points are few: closed at C = 1,000 only (the capacities the open model and the overload derive their
# rates from), the open model at 90 % and the overload at 130 % of kernel-200's capacity there.
WORKLOADS["mixed"] = dict(r_ms=1000, mix=[("/content/vt-demo/page.html", "reads=20&delay=0"),
                                          (WORK_PATH, "reads=1&idleDelay=1000")],
                          feature="starter", concurrency=[1000], open_fractions=[0.9], overload_fractions=[1.3],
                          desc="mixed: one in two a page render without its downstream wait, one in two a call that "
                               "waits 1 s")


def urls(base, w):
    """The URLs of a workload's requests on the instance at base: one, or one per kind of a mix (the load generator
    picks among them at random for every request)."""
    kinds = w.get("mix") or [(w.get("path", WORK_PATH), w["params"])]
    return [f"{base}{path}?{params}" for path, params in kinds]


def points_of(wname, values, key):
    """values (concurrencies, open or overload fractions) as far as the workload's own list under key allows."""
    allowed = WORKLOADS[wname].get(key)
    return [v for v in values if allowed is None or v in allowed]

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


def aa_pair(configs):
    """The A/A pair of a run that measured these configurations."""
    return AA if all(c in configs for c in AA) else AA_UNBOUNDED


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

GC_TAIL_S = 4  # seconds the load runs on after the measured window, for the full GC of the heap figure
STARTUP_TIMEOUT = 300
READINESS_HOLD_S = 1.0  # systemready must stay green this long before the first Sling request (instances.py)

SEED_TIMEOUT = 180
DRAIN_TIMEOUT = 120


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


OHA_VERSION = "1.16.0"
