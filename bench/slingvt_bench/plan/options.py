"""The command line of ./sling-vt bench: its options and their help."""
import argparse
import os

from slingvt_bench.core.setups import CONFIGS, DEFAULT_JVM_OPTS, WORKLOADS
from slingvt_bench.instances.instance import add_launch_args
from slingvt_bench.plan import open_phase, overload_phase
from slingvt_bench.scenarios import metrics_cost


def parse(argv=None):
    """The options of a run (the plan fills in what they leave open)."""
    ap = argparse.ArgumentParser(prog="./sling-vt bench", description="Benchmark of the HTTP request threads of Sling VT.")
    ap.add_argument("--quick", action="store_true", help="about 14 min: the default (vt-adaptive, auto) against kernel-200 and "
                    "vt-unbounded, R = 100 ms and 1 s, C = 100 and 1,000; ratios only (no A/A twin)")
    ap.add_argument("--out", help="output folder (default .sling-vt/bench/<timestamp>)")
    ap.add_argument("--configs", help="comma-separated subset of: " + ", ".join(CONFIGS))
    ap.add_argument("--workloads", help="comma-separated subset of: " + ", ".join(WORKLOADS))
    ap.add_argument("--concurrency", help="comma-separated connection counts")
    ap.add_argument("--duration", type=int, help="seconds per measured point")
    ap.add_argument("--warmup", type=int, help="warm-up seconds per configuration")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every point this many times (interleaved); tables show the median and the spread")
    ap.add_argument("--decisive-rounds", type=int,
                    help="after the grid, measure the decisive points (a target's ratio within 15 %% or twice the A/A "
                         "spread of its goal) again until they have this many rounds (full run: 3; 1 = off)")
    ap.add_argument("--decisive-points", type=int, default=None,
                    help="at most this many decisive points get the extra rounds: shortfalls first, then leads, "
                         "each closest to its goal first")
    ap.add_argument("--points", help="comma-separated WORKLOAD:C pairs: measure only these points of the plan "
                    "(e.g. repo200:8000,page:4000)")
    ap.add_argument("--append", metavar="DIR", help="add rounds to the run in DIR (its results.csv and meta.json): "
                    "each point measured here gets the round numbers after the ones it has, so that the rounds of a "
                    "point can be spread over several invocations (a full run with 3 rounds at the close points "
                    "does not fit one sitting on 2 cores)")
    ap.add_argument("--no-pin", action="store_true", help="do not pin server and wrk to disjoint CPUs")
    ap.add_argument("--pin", action="store_true", help="pin server and wrk to disjoint CPUs even on 2-3 CPUs")
    ap.add_argument("--server-cpus", dest="server_cpus_spec", metavar="LIST",
                    help="confine each instance to these CPUs in a cgroup cpuset of its own, as a container would "
                         "(taskset -c syntax: 0 or 0-1), and run the load generator on the other CPUs (root)")
    ap.add_argument("--server-cpu-quota", type=float, metavar="CPUS",
                    help="confine each instance to this much CPU time (a CFS quota, e.g. 1 or 0.5), as Kubernetes' "
                         "limits.cpu does; with --server-cpus or alone (root)")
    # A fixed, pre-touched heap: RSS then differs by what lives outside the heap (thread stacks above all), not by
    # how far G1 happened to grow the heap, and heap resizing does not add noise to the throughput.
    ap.add_argument("--jvm-opts", default=os.environ.get("SLING_VT_BENCH_JVM_OPTS", DEFAULT_JVM_OPTS),
                    help=f"JVM options of the instances, instead of the default: {DEFAULT_JVM_OPTS} (or "
                         "$SLING_VT_BENCH_JVM_OPTS); repeat the default's to add to it (without -XX:+UseG1GC a "
                         "server confined to one CPU runs the serial collector)")
    ap.add_argument("--wrk-threads", type=int, default=2)
    ap.add_argument("--wrk-timeout", type=int, default=60, help="wrk's per-request timeout in seconds")
    ap.add_argument("--no-build", action="store_true", help="(read by ./sling-vt) use the assembled feature as it is")
    ap.add_argument("--store", choices=["segment", "postgres"], default="segment",
                    help="repository of the instances: segment-tar (default) or Oak's DocumentNodeStore on a "
                         "PostgreSQL that the benchmark starts (one database per configuration, cold Oak caches)")
    ap.add_argument("--feature", choices=["starter", "lean"], default="starter",
                    help="feature of the instances: starter (the default of ./sling-vt run; needed by the page "
                         "workload) or lean (Sling with servlets only, as the runs before 2026-11-24)")
    ap.add_argument("--pool-max", type=int, help="--store postgres: the JDBC pool's maxActive (and maxIdle) instead "
                    "of the feature's 50")
    ap.add_argument("--pool-wait-ms", type=int, default=30000,
                    help="--store postgres with --pool-max: the pool's maxWait in ms (default 30000, the feature's)")
    ap.add_argument("--latency", metavar="MS[,MS...]",
                    help="--store postgres: one-way network latency in ms between the instances and PostgreSQL "
                         "(toxiproxy, built by ./sling-vt toxiproxy). Several values (e.g. 0,1,5): one run per "
                         "latency into OUT/latency-<MS>ms and a summary OUT/latency.md. Without --configs, --workloads "
                         "or --concurrency: kernel-200, vt-unbounded and its twin on cold50 at C = 100, 400, 1,000, "
                         "no open-model or overload phase (about 8 min per latency)")
    open_phase.add_args(ap)
    overload_phase.add_args(ap)
    metrics_cost.add_args(ap)
    ap.add_argument("--report-only", metavar="DIR", help="regenerate results.md and the SVGs from DIR/results.csv (and openmodel.csv, overload.csv, meta.json), in DIR or, with --out, in OUT")
    ap.add_argument("--readme", metavar="DIR", help="write DIR as the run of record into README.md, between its "
                    "markers: the default's targets with the losses first, the closed model's table and the "
                    "overload's answers in time (DIR under docs/benchmarks, for the links)")
    add_launch_args(ap)
    ap.add_argument("--docs", metavar="DIR", help="copy the summary of the run in DIR (README.md, results.md, the CSV "
                    "summaries, meta.json, the plots; no raw per-point files) into docs/benchmarks/NAME "
                    "(NAME: --docs-name, else DIR's folder name)")
    ap.add_argument("--docs-name", metavar="NAME", help="the folder under docs/benchmarks that --docs writes")
    return ap.parse_args(argv)
