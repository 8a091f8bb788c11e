"""The plans of a run (full, quick, PostgreSQL, latency), the duration of a point and the options of the phases whose close points get more rounds."""
from slingvt_bench.core.common import BenchError
from slingvt_bench.core.setups import WORKLOADS


def phase_configs(args, plan, key, names):
    """The configurations a phase drives: the plan's narrower list under key (open_configs, overload_configs) unless
    --configs named the configurations."""
    only = plan.get(key) if not getattr(args, "configs", None) else None
    return [n for n in names if not only or n in only]


def phase_instances(args, plan, key, live):
    """The instances of phase_configs."""
    names = phase_configs(args, plan, key, [i.name for i in live])
    return [i for i in live if i.name in names]


# The warm-up is 60 s: on a 2-core machine whose CPU is slow, 30 s left the JIT compiling through the first points.
# Issue #27 judges auto against the two kernel pools and unbounded, with auto's twin as the A/A control; Felix's own
# virtual threads (felix-virtual) were judged in full-2026-11-25b and are left out so that the run fits one sitting
# (at most about 2 h on 2 cores, see estimate.py and bench/METHOD.md, "One sitting"). The open model below capacity
# runs kernel-200, unbounded, auto and its twin (open_configs), the overload the reference and auto with its twin
# (overload_configs): unbounded's collapse there is in auto-2026-11-25. 12 s per closed point, 15 s per open point,
# 30 s per overload point (overload_rows.DURATION_S). The closed points whose verdict one round cannot settle get 3
# rounds, at most 3 of them (shortfalls first), as do the 7 open-model points closest to their goal and the 2 closest
# overload points (verdicts, open_rounds and overload_decisive.decisive_points; each with the configurations its
# targets compare, verdicts.decisive_configs and open_rounds.COMPARED). The mixed workload (issue #85) adds a closed
# point at C = 1,000, the open model at 90 % and the overload at 130 %, there with unbounded too (overload_also): its
# targets compare with it.
FULL = dict(configs=["kernel-200", "kernel-1000", "vt-unbounded", "vt-adaptive", "vt-adaptive-twin"],
            workloads=["R10ms", "R100ms", "R1s", "repo200", "page", "mixed"], concurrency=[100, 1000, 4000, 8000],
            extra=[], overload_also={"mixed": ["vt-unbounded"]},
            warmup=60, duration=12, pause=1, decisive_rounds=3, decisive_points=3, open_duration=15,
            open_decisive_rounds=3, open_decisive_points=7,
            open_configs=["kernel-200", "vt-unbounded", "vt-adaptive", "vt-adaptive-twin"],
            overload_configs=["kernel-200", "vt-adaptive", "vt-adaptive-twin"], overload_decisive_rounds=3,
            overload_decisive_points=2)


# The quick run (--quick, about 14 min on 2 cores): what a user decides between, the default (auto) against Jetty's
# default pool and unbounded, on two workloads at C = 100 and 1,000, one round, then the open model and the overload
# at shorter points. No A/A twin: its report shows the ratios, not a verdict (verdicts.judge.ratios_only).
QUICK = dict(configs=["kernel-200", "vt-unbounded", "vt-adaptive"], workloads=["R100ms", "R1s"],
             concurrency=[100, 1000], extra=[], warmup=15, duration=15, pause=2)


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


MAX_RAMP_S = 40  # longest extension of a point for its ramp (C / throughput of the previous point)


# Where the ramp is expected to outlast the measured seconds, the previous point's throughput is no safe guess: from
# C = 4,000 to 8,000 repo200 fell from about 440 to 300/s in full-2026-12-02c, its C = 8,000 points ran 30-34 s for
# a ramp of 27-35 s, and none of the 12 had a steady window (the whole-run rate, ramp included, judged them).
LONG_RAMP_MARGIN = 2


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
