"""`--latency 0,1,5`: the benchmark once per latency, each a run of its own (its own PostgreSQL, toxiproxy and
instances) in OUT/latency-<MS>ms, then the summary latency.md (latency_report.py). Stdlib only."""
import os
import subprocess
import sys
import time

from slingvt_bench.core.common import BenchError, log
from slingvt_bench.reports import latency as latency_report


def latencies_of(args):
    if args.store != "postgres":
        raise BenchError("--latency goes with --store postgres (it delays the instances' database connections)")
    try:
        values = [int(v) for v in args.latency.split(",")]
    except ValueError:
        raise BenchError(f"--latency {args.latency}: whole milliseconds from 0 to 1000, e.g. --latency 0,1,5")
    if not values or any(v < 0 or v > 1000 for v in values) or len(set(values)) != len(values):
        raise BenchError(f"--latency {args.latency}: distinct whole milliseconds from 0 to 1000, e.g. --latency 0,1,5")
    if len(values) > 1 and (args.append or args.report_only):
        raise BenchError("several --latency values make one run each: leave out --append and --report-only")
    return values


def _without(argv, option):
    """argv without `option VALUE` and `option=VALUE`."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == option:
            skip = True
        elif not a.startswith(option + "="):
            out.append(a)
    return out


def run_latencies(args, latencies):
    out = os.path.abspath(args.out or os.path.join(args.root, ".sling-vt", "bench",
                                                   time.strftime("%Y%m%d-%H%M%S") + "-latency"))
    os.makedirs(out, exist_ok=True)
    base = _without(_without(sys.argv[1:], "--latency"), "--out")
    for ms in latencies:
        log(f"latency {ms} ms each way: one run into {latency_report.subdir(out, ms)}")
        p = subprocess.run([sys.executable, sys.argv[0], *base, "--latency", str(ms),
                            "--out", latency_report.subdir(out, ms)])
        if p.returncode != 0:
            log(f"the run at {ms} ms failed (exit {p.returncode}); the summary names what is missing")
    print(latency_report.write(out, latencies))
    log(f"summary: {os.path.join(out, 'latency.md')}")
    return 0
