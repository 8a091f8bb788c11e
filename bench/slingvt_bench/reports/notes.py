"""What results.md says about points that are not plain measurements: a failed measurement (it stays in the grid
as "failed", with its reason) and a whole-run rate standing in for the steady rate (marked †)."""
from slingvt_bench.core.rows import WHOLE_RUN_MARK, fmt

FAILED_MARK = "✗"


def marks(d, cf, w, c):
    """" †" where the point's figure is the whole-run rate, " ✗" where a round of it failed, both, or ""."""
    return ((f" {WHOLE_RUN_MARK}" if d.get(cf, w, c, "thr_note") else "")
            + (f" {FAILED_MARK}" if d.failed(cf, w, c) else ""))


def failed_or_dash(d, cf, w, c):
    """The cell of a point without figures: "failed" when its measurement failed, "–" when it was not planned."""
    return "failed" if d.failed(cf, w, c) else "–"


def thr_cell(d, cf, w, c):
    """A throughput cell: "failed" where no round of the point was measured, else the number with its marks."""
    if d.get(cf, w, c, "failed"):
        return "failed"
    return fmt(d.get(cf, w, c, "thr")) + marks(d, cf, w, c)


def whole_run_table(d):
    """Every point whose throughput is the whole-run rate, and why (data.throughput)."""
    rows = [(cf, w, c) for w, c in d.points() for cf in d.configs if d.get(cf, w, c, "thr_note")]
    if not rows:
        return []
    L = [f"## {WHOLE_RUN_MARK} Points without a steady rate\n",
         f"Where a cell is marked {WHOLE_RUN_MARK}, the steady window had no rate (it caught no answer, or the run "
         "was too short for one) and the number is the whole-run rate, ramp and tail included: not the same measure "
         "as the other cells. The ratios and verdicts use it as it is; the verdict lines count such points.\n",
         "| config | workload | C | steady rate | window (s) | whole-run rate | note |", "|---|---|---:|---:|---:|---:|---|"]
    for cf, w, c in rows:
        L.append(f"| {cf} | {w} | {c:,} | {d.get(cf, w, c, 'rps_steady') or '–'} | "
                 f"{d.get(cf, w, c, 'steady_window_s') or '–'} | {fmt(d.get(cf, w, c, 'rps'))} | "
                 f"{d.get(cf, w, c, 'thr_note')} |")
    L.append("")
    return L


def failed_table(d):
    """Every failed measurement (round) with its reason."""
    rows = [r for r in d.rows if r.get("failed")]
    if not rows:
        return []
    L = [f"## {FAILED_MARK} Failed measurements\n",
         "A measurement that failed (the instance did not start or crashed, the load generator wrote no summary, …) "
         "stays in the grid: its cells read \"failed\" (or carry ✗ where another round of the point was measured), "
         "and every verdict it takes part in is MISSED. After a crash the configuration is restarted for its next "
         "point when it can be; otherwise its remaining points are recorded here as failed.\n",
         "| config | workload | C | round | reason |", "|---|---|---:|---:|---|"]
    for r in rows:
        L.append(f"| {r['config']} | {r['workload']} | {int(r['concurrency']):,} | {r.get('round') or 1} | "
                 f"{r['failed'].replace('|', '/')} |")
    L.append("")
    return L
