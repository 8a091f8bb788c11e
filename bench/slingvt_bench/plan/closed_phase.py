"""The closed model's rounds: every instance per point, in an order that rotates, results written after every measurement."""
import json
import os
import time

from slingvt_bench.core import rows as data
from slingvt_bench.core.common import BenchError, log
from slingvt_bench.core.setups import WORKLOADS, serves
from slingvt_bench.load.points import ensure_running, measure_point, note_failure
from slingvt_bench.plan.plans import point_duration


def sitting(meta):
    """The part of meta.json that describes this sitting: the run's own, or with --append the entry it added last (the
    first sitting's elapsed time stays the run's)."""
    return meta["appended"][-1] if meta.get("appended") else meta


def run_rounds(args, plan, live, rows, earlier, pdir, out, meta, started, rounds, compared=None):
    """Measures (round, index, (workload, C)) in order, every instance per point (or those compared(workload, C)
    names), the first instance rotating with the index and round; rows, results.csv and meta.json are updated after
    every measurement. A measurement that fails becomes a failed row (data.failed_row); a configuration that is down
    is restarted for its next point while restarts are left (points.ensure_running), else its points are recorded
    as failed."""
    csv_path = os.path.join(out, "results.csv")
    for rnd, i, (wname, c) in rounds:
        k = (i + rnd) % len(live) if live else 0
        wanted = compared(wname, c) if compared else None
        for inst in live[k:] + live[:k]:
            if not serves(inst.name, wname) or (wanted and inst.name not in wanted):
                continue
            number, down = rnd + 1 + last_round(earlier, wname, c), None
            try:
                down = ensure_running(args, inst, pdir)
                if down:
                    raise BenchError(down)
                inst.check_alive()
                duration = point_duration(args, rows, inst.name, wname, c)
                others = [o for o in live if o is not inst and "error" not in o.info]
                rows.append(measure_point(args, inst, wname, c, pdir, duration, others, number))
            except BenchError as e:
                log(f"{inst.name} {wname} C={c}: failed: {e}")
                if not down:
                    note_failure(inst, f"{wname} C={c} round {number}", e)
                rows.append(data.failed_row(inst.name, wname, WORKLOADS[wname]["r_ms"], c, number, e))
            data.write_csv(csv_path, rows)
            sitting(meta)["elapsed_s"] = round(time.time() - started)
            with open(os.path.join(out, "meta.json"), "w") as f:
                json.dump(meta, f, indent=2)
            time.sleep(plan["pause"])


def parse_points(text):
    points = set()
    for item in text.split(","):
        w, _, c = item.strip().partition(":")
        if not c.isdigit():
            raise BenchError(f"--points: '{item}' is not WORKLOAD:C (e.g. repo200:8000)")
        points.add((w, int(c)))
    return points


def last_round(rows, wname, c):
    """The highest round an earlier invocation measured at this point (0 for none)."""
    return max((data.round_of(r) for r in rows
                if r["workload"] == wname and int(r["concurrency"]) == c), default=0)
