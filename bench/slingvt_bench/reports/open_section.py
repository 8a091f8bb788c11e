"""results.md: the open model's latency at fixed arrival rates."""
import os

from slingvt_bench.core.open_rows import read_csv
from slingvt_bench.core.rows import rate_point, round_of
from slingvt_bench.core.setups import OHA_VERSION, REFERENCE
from slingvt_bench.reports import host_table
from slingvt_bench.verdicts import open_rounds


def section(out):
    """The results.md section for DIR/openmodel.csv, or "" when the run has none."""
    rows = read_csv(os.path.join(out, "openmodel.csv"))
    if not rows:
        return ""
    same = all(r.get("reference") for r in rows)
    basis = ("The offered rate is the same for every configuration of a workload: the load column's share of the "
             "reference configuration's capacity (its best steady throughput on that workload in this run; "
             f"{REFERENCE} unless it had none), so each row group compares the configurations under the same load. "
             "Own capacity = the configuration's own best steady throughput there (a rate above it overloads it). "
             if same else
             "**This run predates the shared rates**: the rate is the load column's share of each configuration's "
             "own capacity, so the rates differ between configurations and their latencies are not comparable "
             "row by row. ")
    durations = ", ".join(sorted({r["duration_s"] for r in rows if r.get("duration_s")}))
    order = {k: i for i, k in enumerate(dict.fromkeys(rate_point(r) for r in rows))}
    probed = any(r.get("handover_ns") for r in rows)
    L = ["\n## Latency at fixed arrival rates (open model)\n",
         f"oha {OHA_VERSION}, `--latency-correction` (each request timed from when it was due, so waiting for a "
         f"connection counts: no coordinated omission), {durations} s per "
         "rate, after the closed-model points. " + basis +
         "Achieved = successful answers per second. Errors leave out the requests still in flight when the run "
         "ended. Latencies in ms. A run that failed stays in the table with its reason."
         + (" " + open_rounds.rounds_note(rows).strip() if open_rounds.rounds_note(rows) else "")
         + (" Host ns: the host's cross-core hand-over before / after the run (`*`: it changed state during it); the "
            "p99 target compares rounds measured in one host state (bench/METHOD.md: One host state)." if probed else "") + "\n",
         "| workload | offered /s | load | config | own capacity /s | achieved /s | p50 | p90 | p99 | p99.9 | max | "
         "errors | non-2xx |" + (" host ns |" if probed else ""),
         "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if probed else "")]
    several = {rate_point(r) for r in rows if round_of(r) > 1}
    for r in sorted(rows, key=lambda r: (order[rate_point(r)], round_of(r))):
        load = (f"{round(float(r['fraction']) * 100)} % of {r.get('reference') or 'own'} {r['capacity_rps']}")
        config = r["config"] + (f" (round {round_of(r)})" if rate_point(r) in several else "")
        own = r.get("own_capacity_rps") or (r["capacity_rps"] if not r.get("reference") else "–")
        if r.get("failed"):
            L.append(f"| {r['workload']} | {r['target_rps']} | {load} | {config} | {own} | "
                     f"**failed**: {r['failed'].replace('|', '/')} |" + " – |" * (8 if probed else 7))
            continue
        L.append(f"| {r['workload']} | {r['target_rps']} | {load} | {config} | {own} | {r['achieved_rps']} | "
                 f"{r['p50_ms']} | {r['p90_ms']} | {r['p99_ms']} | {r['p999_ms']} | {r['max_ms']} | {r['errors']} | "
                 f"{r['non2xx']} |"
                 + (f" {host_table.cell(r.get('handover_ns'), r.get('handover_ns_after'))} |" if probed else ""))
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    L.append("\nPlots (bar p50 to p99, dash p99.9, log scale): "
             + ", ".join(f"[{w}](latency-{w}.svg)" for w in workloads) + ".")
    L.append("\nRaw numbers: [openmodel.csv](openmodel.csv); oha's JSON per rate in `wrk/oha-*.json`.\n")
    return "\n".join(L)
