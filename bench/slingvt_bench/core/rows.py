"""The rows of a run: results.csv written and read, number formatting, and Data, which groups the rows by
(configuration, workload, concurrency) and takes the median round of a point."""
import csv
import os



FIELDS = ["config", "workload", "r_ms", "concurrency", "round", "failed", "duration_s", "requests", "rps", "rps_steady",
          "steady_window_s", "ramp_s", "thr_note", "little_bound_rps",
          "p50_ms", "p99_ms", "mean_ms", "max_ms", "err_connect", "err_read", "err_write", "err_timeout",
          "socket_errors", "non2xx", "threads_max", "threads_end", "rss_max_mib", "heap_after_gc_mib", "cpu_pct",
          "others_cpu_pct", "gc_cpu_pct", "jit_cpu_pct", "thread_census", "drain_s", "db_rt_per_req", "db_cpu_pct",
          "pool_active_max", "pool_waiting_max",
          "pool_samples", "handover_ns", "handover_ns_after", "client_cpu_pct"]


CONFIG_ORDER = ["kernel-200", "kernel-200-zgc", "kernel-1000", "felix-virtual", "vt-unbounded", "vt-unbounded-twin",
                "vt-unbounded-zgc", "vt-unbounded-6g", "vt-no-detector", "vt-bounded", "vt-cap-100", "vt-adaptive",
                "vt-adaptive-twin", "vt-adaptive-jetty-cache", "vt-adaptive-queue"]


WORKLOAD_ORDER = ["cold50", "R10ms", "R100ms", "R1s", "repo200", "park10s"]


VIRTUAL = ["vt-unbounded", "vt-adaptive", "vt-adaptive-jetty-cache", "vt-adaptive-queue", "vt-bounded", "vt-cap-100",
           "felix-virtual"]


KERNEL = ["kernel-200", "kernel-1000"]


def write_csv(path, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
    os.replace(tmp, path)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(v, digits=0):
    v = num(v)
    if v is None:
        return "–"
    if digits == 0:
        return f"{v:,.0f}"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    a, b = num(a), num(b)
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(r):
    return "–" if r is None else f"{r:.2f}×"


def lower_median(values):
    values = sorted(values)
    return values[(len(values) - 1) // 2] if values else None


def round_of(row):
    """The round of a row (closed model, open model, overload, series); rows written before rounds existed are
    round 1."""
    return int(row.get("round") or 1)


def rate_point(row):
    """(workload, fraction of the reference's capacity): the point of an open-model or overload row."""
    return row["workload"], float(row["fraction"])


def median_rounds(rows, field):
    """One row per (config, workload, fraction) of open-model or overload rows: the round with the (lower) median
    of field; a failed round stands for the point, as a failed point is missed."""
    groups = {}
    for r in rows:
        groups.setdefault((r["config"], *rate_point(r)), []).append(r)
    out = []
    for group in groups.values():
        bad = [r for r in group if r.get("failed")]
        measured = sorted((r for r in group if num(r.get(field)) is not None),
                          key=lambda r: (num(r[field]), round_of(r)))
        out.append(bad[0] if bad or not measured else measured[(len(measured) - 1) // 2])
    return out


def failed_row(config, workload, r_ms, c, rnd, reason):
    """A measurement that did not happen or did not finish: it stays in the grid, with the reason, and counts as
    missed in every verdict it takes part in (verdicts.py)."""
    return dict(config=config, workload=workload, r_ms=r_ms, concurrency=c, round=rnd,
                failed=" ".join(str(reason).split()) or "failed")


# The mark of a throughput that is the whole-run rate, not the steady rate (report.py shows it next to the number).
WHOLE_RUN_MARK = "†"


def throughput(r):
    """(throughput, note) of a row. The steady-state rate where it is; otherwise the whole-run rate, with a note
    saying so: when the run was too short for a window, or when the window caught no answer although the run did
    (under heavy overload a fair scheduler answers in waves, and a window between two of them reads 0). The whole-run
    rate includes the ramp and the tail, so it is not the same measure as the steady rate; it is never used silently.
    """
    steady, whole = num(r.get("rps_steady")), num(r.get("rps"))
    if steady or whole is None or (steady == 0 and whole == 0):
        return r.get("rps_steady"), ""
    if steady is None:
        return r.get("rps"), f"no steady window ({r.get('steady_window_s') or '?'} s < 5 s): whole-run rate"
    return r.get("rps"), "steady window empty: whole-run rate"


class Rows:
    """Rows by (config, workload, C). With --rounds N a point has N rows: its figures are those of the round with
    the (lower) median throughput. The ratios between configurations are verdicts.ratios.Data's."""

    def __init__(self, rows):
        groups = {}
        for r in rows:
            r["thr"], r["thr_note"] = throughput(r)
            # ms of server CPU per successful request: (cpu % / 100) / (req/s) * 1000.
            cpu, thr = num(r.get("cpu_pct")), num(r["thr"])
            r["cpu_ms"] = 10.0 * cpu / thr if cpu and thr else None
            groups.setdefault((r["config"], r["workload"], int(r["concurrency"])), []).append(r)
        self.rows = rows
        self.rounds = {k: sorted(v, key=round_of) for k, v in groups.items()}
        self.by = {k: self._median_row(v) for k, v in groups.items()}
        self.max_rounds = max((len(v) for v in groups.values()), default=1)
        present = {r["config"] for r in rows}
        self.configs = [c for c in CONFIG_ORDER if c in present] + sorted(present - set(CONFIG_ORDER))
        wl = {r["workload"] for r in rows}
        self.workloads = [w for w in WORKLOAD_ORDER if w in wl] + sorted(wl - set(WORKLOAD_ORDER))
        self.conc = sorted({int(r["concurrency"]) for r in rows})

    @staticmethod
    def _median_row(rows):
        measured = [r for r in rows if num(r["thr"]) is not None and not r.get("failed")]
        if not measured:
            return rows[0]
        return sorted(measured, key=lambda r: num(r["thr"]))[(len(measured) - 1) // 2]

    def failed(self, config, workload, c):
        """Why a round of this point failed (the first such round), or None when every round was measured."""
        return next((r["failed"] for r in self.rounds.get((config, workload, c), []) if r.get("failed")), None)

    def get(self, config, workload, c, field):
        r = self.by.get((config, workload, c))
        return None if r is None else r.get(field)

    def points(self):
        return [(w, c) for w in self.workloads for c in self.conc
                if any((cf, w, c) in self.by for cf in self.configs)]
