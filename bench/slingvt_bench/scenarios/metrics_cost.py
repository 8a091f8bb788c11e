"""./sling-vt bench --metrics-cost: what recording the metrics costs the cheapest request.

One instance in the default settings; wrk -c50 on GET /bin/vt/work.json?reads=1 (one repository read: the request
where a fixed per-request cost weighs most), the metrics component (PID io.github.slingvt.observability.Metrics)
enabled and disabled in turn, in ABBA order per round so that a drift of the machine hits both alike. Target: the
median rate with metrics >= 0.98x the median without. Met, missed, or undecided when the shortfall is inside the
spread of the runs (the largest relative range of either arm)."""
import base64
import json
import os
import statistics
import time
import urllib.parse
import urllib.request

from slingvt_bench.core.common import BenchError, free_port, log
from slingvt_bench.core.httpget import get_json
from slingvt_bench.core.setups import DEFAULT_VIRTUAL
from slingvt_bench.instances.instance import Instance
from slingvt_bench.load.points import warmup
from slingvt_bench.load.runner import run_wrk, steady_rate
from slingvt_bench.verdicts.metrics_cost import TARGET, verdict

METRICS_PID = "io.github.slingvt.observability.Metrics"
URL_PATH = "/bin/vt/work.json?reads=1"
CONNECTIONS = 50


def add_args(ap):
    ap.add_argument("--metrics-cost", action="store_true",
                    help="instead of the grid: the cost of the metrics on the cheapest request (wrk -c50, reads=1), "
                         "metrics on vs off alternated, --rounds rounds (default here 3), --duration s each (20)")


def set_enabled(inst, enabled):
    """Saves the configuration as the web console's Save button does, then waits until the component says so."""
    form = urllib.parse.urlencode({"apply": "true", "action": "ajaxConfigManager", "propertylist": "enabled",
                                   "enabled": "true" if enabled else "false"}).encode()
    req = urllib.request.Request(f"{inst.url}/system/console/configMgr/{METRICS_PID}", data=form, method="POST")
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    with urllib.request.urlopen(req, timeout=30) as r:
        r.read()
    deadline = time.time() + 30
    while time.time() < deadline:
        series = get_json(f"{inst.url}/system/console/slingvt/series.json", auth="admin:admin")
        if series is not None and series.get("enabled") is enabled:
            return
        time.sleep(0.5)
    raise BenchError(f"metrics did not become enabled={enabled} within 30 s")


def run(args, out, pdir):
    rounds = args.rounds if args.rounds > 1 else 3
    duration = args.duration or 20
    inst = Instance(args, DEFAULT_VIRTUAL, os.path.join(out, "instances", DEFAULT_VIRTUAL), free_port())
    rates = {True: [], False: []}
    runs = []
    try:
        inst.start()
        warmup(args, inst, pdir)
        for r in range(rounds):
            for enabled in ((True, False) if r % 2 == 0 else (False, True)):
                set_enabled(inst, enabled)
                name = f"metrics-{'on' if enabled else 'off'}-r{r + 1}"
                res = run_wrk(args, inst.url + URL_PATH, CONNECTIONS, duration, os.path.join(pdir, name + ".json"),
                              args.wrk_timeout)
                rate, window, _ = steady_rate(res, CONNECTIONS, 0, duration)
                if rate == "":
                    raise BenchError(f"{name}: no steady window ({window} s); raise --duration")
                rates[enabled].append(rate)
                runs.append(dict(round=r + 1, metrics=enabled, rate=rate, window_s=window))
                log(f"{name}: {rate} req/s")
        set_enabled(inst, True)
    finally:
        inst.stop()
    ratio, spread, outcome = verdict(rates[True], rates[False])
    result = dict(target=f"metrics on >= {TARGET}x off", ratio=round(ratio, 3), spread=round(spread, 3),
                  verdict=outcome, median_on=statistics.median(rates[True]),
                  median_off=statistics.median(rates[False]), runs=runs, duration_s=duration,
                  request=URL_PATH, connections=CONNECTIONS, instance=inst.info)
    with open(os.path.join(out, "metrics-cost.json"), "w") as f:
        json.dump(result, f, indent=2)
    lines = ["# Metrics cost: the cheapest request, metrics on vs off", "",
             f"wrk -c{CONNECTIONS} -d{duration}s GET {URL_PATH}, one instance ({DEFAULT_VIRTUAL}), "
             f"{rounds} rounds in ABBA order.", "",
             f"**{outcome}**: on / off = {ratio:.3f}x (target >= {TARGET}x; spread of the runs {100 * spread:.1f} %)", "",
             "| round | metrics | req/s |", "|---|---|---|"]
    lines += [f"| {x['round']} | {'on' if x['metrics'] else 'off'} | {x['rate']} |" for x in runs]
    with open(os.path.join(out, "metrics-cost.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"metrics cost: on/off {ratio:.3f}x ({outcome}; spread {100 * spread:.1f} %): {out}/metrics-cost.md")
    return 0
