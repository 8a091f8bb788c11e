"""results.csv -> results.md (tables, virtual:kernel ratios, targets met/missed) and SVG plots. Stdlib only.

`python3 bench/report.py DIR` regenerates the report of an output folder from DIR/results.csv and DIR/meta.json.
"""
import csv
import json
import os
import sys
from xml.sax.saxutils import escape

import openload

FIELDS = ["config", "workload", "r_ms", "concurrency", "round", "duration_s", "requests", "rps", "rps_steady",
          "steady_window_s", "ramp_s", "little_bound_rps",
          "p50_ms", "p99_ms", "mean_ms", "max_ms", "err_connect", "err_read", "err_write", "err_timeout",
          "socket_errors", "non2xx", "threads_max", "threads_end", "rss_max_mib", "heap_after_gc_mib", "cpu_pct",
          "others_cpu_pct", "drain_s", "db_rt_per_req", "db_cpu_pct", "pool_active_max", "pool_waiting_max",
          "pool_samples"]
CONFIG_ORDER = ["kernel-200", "kernel-1000", "felix-virtual", "vt-unbounded", "vt-unbounded-twin", "vt-no-detector",
                "vt-bounded", "vt-cap-100", "vt-adaptive"]
COLORS = {"kernel-200": "#d62728", "kernel-1000": "#ff7f0e", "felix-virtual": "#2ca02c",
          "vt-unbounded": "#1f77b4", "vt-unbounded-twin": "#7f7f7f", "vt-no-detector": "#17becf", "vt-bounded": "#9467bd",
          "vt-cap-100": "#8c564b"}
WORKLOAD_ORDER = ["cold50", "R10ms", "R100ms", "R1s", "repo200", "park10s"]
VIRTUAL = ["vt-unbounded", "vt-bounded", "vt-cap-100", "felix-virtual"]
KERNEL = ["kernel-200", "kernel-1000"]
PLOT_SKIP = {"park10s"}  # a single concurrency: a table row, not a plot


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


class Data:
    """Rows by (config, workload, C). With --rounds N a point has N rows: its figures are those of the round with
    the (lower) median throughput, and ratios are the median of the per-round ratios (the rounds of one point run
    back to back, so a ratio within a round is not skewed by drift between rounds)."""

    def __init__(self, rows):
        groups = {}
        for r in rows:  # throughput = steady-state rate; whole-run rate when the run was too short for a window
            r["thr"] = r.get("rps_steady") or r.get("rps")
            groups.setdefault((r["config"], r["workload"], int(r["concurrency"])), []).append(r)
        self.rows = rows
        self.rounds = {k: sorted(v, key=lambda r: int(r.get("round") or 1)) for k, v in groups.items()}
        self.by = {k: self._median_row(v) for k, v in groups.items()}
        self.max_rounds = max((len(v) for v in groups.values()), default=1)
        present = {r["config"] for r in rows}
        self.configs = [c for c in CONFIG_ORDER if c in present] + sorted(present - set(CONFIG_ORDER))
        wl = {r["workload"] for r in rows}
        self.workloads = [w for w in WORKLOAD_ORDER if w in wl] + sorted(wl - set(WORKLOAD_ORDER))
        self.conc = sorted({int(r["concurrency"]) for r in rows})

    @staticmethod
    def _median_row(rows):
        measured = [r for r in rows if num(r["thr"]) is not None]
        if not measured:
            return rows[0]
        return sorted(measured, key=lambda r: num(r["thr"]))[(len(measured) - 1) // 2]

    def get(self, config, workload, c, field):
        r = self.by.get((config, workload, c))
        return None if r is None else r.get(field)

    def round_ratios(self, a, b, workload, c):
        ra = {int(r.get("round") or 1): num(r["thr"]) for r in self.rounds.get((a, workload, c), [])}
        rb = {int(r.get("round") or 1): num(r["thr"]) for r in self.rounds.get((b, workload, c), [])}
        return [ratio(ra[k], rb[k]) for k in sorted(ra) if k in rb and ratio(ra[k], rb[k]) is not None]

    def ratio(self, a, b, workload, c):
        rs = self.round_ratios(a, b, workload, c)
        if len(rs) > 1:
            return lower_median(rs)
        return ratio(self.get(a, workload, c, "thr"), self.get(b, workload, c, "thr"))

    def points(self):
        return [(w, c) for w in self.workloads for c in self.conc
                if any((cf, w, c) in self.by for cf in self.configs)]


def aa_spread(d, w, c):
    """How far two identical instances (vt-unbounded and its twin) differed at this point, as a fraction (0.04 = 4 %),
    or None when the twin was not measured here."""
    rs = d.round_ratios("vt-unbounded", "vt-unbounded-twin", w, c)
    return max(abs(r - 1) for r in rs) if rs else None


def verdict(measured, goal, spread):
    """met / MISSED / undecided: a ratio within the A/A spread of its goal decides nothing."""
    if measured is None:
        return "not measured"
    if spread is not None and abs(measured / goal - 1) <= spread:
        return f"undecided (within the A/A spread of ±{100 * spread:.0f} %)"
    return "met" if measured >= goal else "MISSED"


def comparisons(d):
    """Every point of every virtual configuration against the better kernel pool there: (virtual, workload, C,
    ratio, kernel, spread), losses first (lowest ratio first), then the rest in point order."""
    rows = []
    for v in [c for c in VIRTUAL if c in d.configs]:
        for w, c in d.points():
            best = max(((k, num(d.get(k, w, c, "thr"))) for k in KERNEL if num(d.get(k, w, c, "thr")) is not None),
                       key=lambda t: t[1], default=None)
            r = None if best is None else d.ratio(v, best[0], w, c)
            if r is not None:
                rows.append((v, w, c, r, best[0], aa_spread(d, w, c)))
    return sorted(rows, key=lambda t: (t[3] >= 1, t[3] if t[3] < 1 else 0))


def targets_postgres(d, meta):
    """Targets of issue #12 (Oak on PostgreSQL)."""
    out = []
    for v in ("vt-unbounded", "vt-bounded"):
        r = d.ratio(v, "kernel-200", "cold50", 1000)
        out.append((f"C=1,000, cold reads: {v} ≥ 2 × kernel-200", fmt_ratio(r),
                    verdict(r, 2.0, aa_spread(d, "cold50", 1000))))
    errors = [(cf, w, c, num(d.get(cf, w, c, "socket_errors")) or 0, num(d.get(cf, w, c, "non2xx")) or 0)
              for cf in d.configs if cf in VIRTUAL for w, c in d.points() if (cf, w, c) in d.by]
    bad = [f"{cf} {w} C={c} ({int(se)} socket, {int(nx)} non-2xx)" for cf, w, c, se, nx in errors if se or nx]
    pool = (meta.get("postgres") or {}).get("pool_max_active", 50)
    out.append((f"no failed request on virtual threads while the JDBC pool ({pool}) is short by C − {pool}",
                f"{len(errors)} points" + (": " + ", ".join(bad) if bad else ", 0 errors"),
                "met" if errors and not bad else "not measured" if not errors else "MISSED"))
    return out


def x_cpu(d, w, nproc):
    """The CPU's limit for workload w in requests/s: all cores divided by the lowest CPU per request this run
    measured for the workload (any configuration, any C). Not only the lowest C: there a wait-dominated workload
    spreads the instance's idle CPU over few requests, which overstates the cost per request. An upper bound, since
    wrk shares the cores and the lowest cost is the cheapest the server ever did it."""
    if not nproc:
        return None
    per_req = [num(d.get(cf, w, c, "cpu_pct")) / 100.0 / num(d.get(cf, w, c, "thr")) for cf in d.configs
               for ww, c in d.points() if ww == w and num(d.get(cf, w, c, "cpu_pct")) and num(d.get(cf, w, c, "thr"))]
    return nproc / min(per_req) if per_req else None


def physical_limit(d, w, c, nproc):
    """min(C/R, X_cpu): what no thread model can beat at this point."""
    bound = next((num(d.get(cf, w, c, "little_bound_rps")) for cf in d.configs
                  if num(d.get(cf, w, c, "little_bound_rps"))), None)
    xc = x_cpu(d, w, nproc)
    limits = [v for v in (bound, xc) if v]
    return min(limits) if limits else None


def every_point(d, a, b, goal, label):
    """A per-point ratio target: met only where the ratio clears the goal by more than that point's A/A spread."""
    rows = [(w, c, d.ratio(a, b, w, c), aa_spread(d, w, c)) for w, c in d.points()]
    rows = [(w, c, r, sp) for w, c, r, sp in rows if r is not None]
    if not rows:
        return (label, "not measured", "not measured")
    verdicts = [(w, c, r, verdict(r, goal, sp)) for w, c, r, sp in rows]
    missed = [f"{w} C={c} ({r:.2f}×)" for w, c, r, v in verdicts if v == "MISSED"]
    undecided = [f"{w} C={c} ({r:.2f}×)" for w, c, r, v in verdicts if v.startswith("undecided")]
    no_aa = sum(1 for *_, sp in rows if sp is None)
    measured = (f"{len(rows)} points: {len(rows) - len(missed) - len(undecided)} met, {len(missed)} missed, "
                f"{len(undecided)} undecided" + (f" ({no_aa} without an A/A twin)" if no_aa else ""))
    if missed:
        return (label, measured, "MISSED: " + ", ".join(missed))
    if undecided:
        return (label, measured, "undecided: " + ", ".join(undecided))
    return (label, measured, "met")


def targets(d, meta=None):
    """The targets of issue #13 (segment store) or #12 (--store postgres): (text, measured, verdict). None follows
    from Little's law alone; a ratio within the A/A spread of its goal is undecided."""
    meta = meta or {}
    if meta.get("store") == "postgres":
        return targets_postgres(d, meta) + aa_line(d)
    nproc = meta.get("machine", {}).get("nproc")
    out = []
    for b in ("kernel-200", "kernel-1000", "felix-virtual"):
        if b in d.configs:
            out.append(every_point(d, "vt-unbounded", b, 1.0, f"every point: vt-unbounded ≥ 1.0 × {b}"))
    for w in ("R100ms", "R10ms"):
        r = d.ratio("vt-adaptive", "vt-unbounded", w, 100)
        out.append((f"C=100, {w}: adaptive admission ≥ 0.97 × vt-unbounded",
                    fmt_ratio(r) if r is not None else "not measured (no adaptive configuration yet)",
                    verdict(r, 0.97, aa_spread(d, w, 100))))
    for c in (4000, 8000):
        thr, lim = num(d.get("vt-unbounded", "R1s", c, "thr")), physical_limit(d, "R1s", c, nproc)
        r = thr / lim if thr and lim else None
        out.append((f"C={c:,}, R=1 s: vt-unbounded ≥ 90 % of min(C/R, X_cpu)",
                    "not measured" if r is None else f"{thr:,.0f} of {lim:,.0f} req/s = {100 * r:.0f} %",
                    verdict(r, 0.9, aa_spread(d, "R1s", c))))
    cpu = {c: (num(d.get("vt-unbounded", "R1s", c, "cpu_pct")), num(d.get("vt-unbounded", "R1s", c, "thr")))
           for c in (1000, 8000)}
    if all(a and b for a, b in cpu.values()):
        ms = {c: 10.0 * a / b for c, (a, b) in cpu.items()}  # ms of CPU per request: (cpu% / 100) / (req/s) * 1000
        grow = ms[8000] / ms[1000]
        out.append(("R=1 s: vt-unbounded CPU per request at C=8,000 within 10 % of C=1,000",
                    f"{ms[1000]:.2f} → {ms[8000]:.2f} ms ({100 * (grow - 1):+.0f} %)",
                    "met" if grow <= 1.10 else "MISSED"))
    else:
        out.append(("R=1 s: vt-unbounded CPU per request at C=8,000 within 10 % of C=1,000", "not measured",
                    "not measured"))
    th = [num(d.get("vt-unbounded", w, c, "threads_max")) for w, c in d.points()]
    th = [t for t in th if t is not None]
    out.append(("under load, virtual mode: ≤ 60 live OS threads (vt-unbounded, every point)",
                "not measured" if not th else f"peak {max(th):.0f}", "not measured" if not th else
                ("met" if max(th) <= 60 else "MISSED")))
    rs = sorted(x for x in (d.ratio("vt-unbounded", "vt-no-detector", w, c) for w, c in d.points())
                if x is not None)
    if rs:
        med = rs[len(rs) // 2]
        out.append(("pinning detector costs nothing measurable: vt-unbounded : vt-no-detector (median over points "
                    "≥ 0.97)", f"median {med:.2f}×, range {rs[0]:.2f}–{rs[-1]:.2f}× over {len(rs)} points",
                    "met" if med >= 0.97 else "MISSED"))
    out += aa_line(d)
    return out


def physical_table(d, meta):
    nproc = meta.get("machine", {}).get("nproc")
    pts = [(w, c, physical_limit(d, w, c, nproc)) for w, c in d.points()]
    if not any(lim for *_, lim in pts):
        return []
    L = ["## Against the physical limit\n",
         "min(C/R, X_cpu) per point: C/R is Little's law with the nominal R; X_cpu = CPUs ÷ the lowest CPU per "
         "request any configuration used for the workload in this run (an upper bound: wrk shares the CPUs). Each "
         "cell is the configuration's throughput as a share of that limit.\n",
         "| workload | C | limit (req/s) | " + " | ".join(d.configs) + " |",
         "|---|---:|---:|" + "---:|" * len(d.configs)]
    for w, c, lim in pts:
        cells = [f"{100 * num(d.get(cf, w, c, 'thr')) / lim:.0f} %" if lim and num(d.get(cf, w, c, "thr")) else "–"
                 for cf in d.configs]
        L.append(f"| {w} | {c:,} | {fmt(lim)} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def aa_line(d):
    aa = [(w, c, d.round_ratios("vt-unbounded", "vt-unbounded-twin", w, c)) for w, c in d.points()]
    flat = sorted(x for _, _, rs in aa for x in rs)
    if not flat:
        return []
    return [("A/A control (not a target): vt-unbounded : vt-unbounded-twin, two identical instances",
             f"{len(flat)} measurements, {flat[0]:.2f}–{flat[-1]:.2f}×", "info")]


def losses_first(d):
    L = ["## Every point against the better kernel pool, losses first\n",
         "Each virtual configuration at each point against whichever of kernel-200 and kernel-1000 did better there. "
         "A ratio within the A/A spread of that point (two identical vt-unbounded instances) is undecided, not a "
         "win or a loss.\n",
         "| virtual | workload | C | ratio | against | A/A spread | reading |", "|---|---|---:|---:|---|---:|---|"]
    rows = comparisons(d)
    if not rows:
        return []
    for v, w, c, r, k, spread in rows:
        if spread is not None and abs(r - 1) <= spread:
            reading = "undecided"
        elif round(r, 2) == 1.0:
            reading = "even"
        else:
            reading = "**loss**" if r < 1 else "win"
        if spread is None and reading != "even":
            reading += " (no A/A here to tell noise)"
        L.append(f"| {v} | {w} | {c:,} | {r:.2f}× | {k} | {'–' if spread is None else f'±{100 * spread:.0f} %'} | "
                 f"{reading} |")
    L.append("")
    return L


def database_table(d, meta):
    if not any(d.get(cf, w, c, "db_cpu_pct") for cf in d.configs for w, c in d.points()):
        return []
    pg = meta.get("postgres") or {}
    L = ["## Database (PostgreSQL) and JDBC pool\n",
         "Round trips per request: Oak's database round trips (counted by the bundle jdbc-round-trips) over the "
         "requests the instance completed in the same span. Database CPU: the PostgreSQL server's processes, % of "
         "one core over the load. Pool: peak borrowed connections / peak threads waiting for one (tomcat-jdbc, "
         f"maxActive {pg.get('pool_max_active', 50)}, maxWait {pg.get('pool_max_wait_ms', 30000)} ms), sampled once "
         "a second from the console status; answered samples / taken (a saturated kernel pool queues the status "
         "request like any other).\n",
         "| workload | C | " + " | ".join(f"{cf} round trips / DB CPU / pool active / waiting (samples)"
                                       for cf in d.configs) + " |",
         "|---|---:|" + "---:|" * len(d.configs)]
    for w, c in d.points():
        cells = [(f"{fmt(d.get(cf, w, c, 'db_rt_per_req'), 1)} / {fmt(d.get(cf, w, c, 'db_cpu_pct'))} % / "
                  f"{fmt(d.get(cf, w, c, 'pool_active_max'))} / {fmt(d.get(cf, w, c, 'pool_waiting_max'))} "
                  f"({d.get(cf, w, c, 'pool_samples') or '–'})") if (cf, w, c) in d.by else "–" for cf in d.configs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def markdown(d, meta):
    m = meta.get("machine", {})
    L = []
    title = "Quick benchmark" if meta.get("quick") else "Benchmark"
    L.append(f"# {title}: Sling VT request threads ({m.get('date', '')})\n")
    L.append(f"Machine: {m.get('nproc')} CPUs ({m.get('cpu_model', '')}), {m.get('mem_gib')} GiB, {m.get('os', '')}, "
             f"Linux {m.get('kernel', '')}; {m.get('jdk', '')}; JVM options `{m.get('jvm_opts', '')}`; "
             f"{m.get('wrk', '')} with {m.get('wrk_threads')} threads, timeout {m.get('wrk_timeout_s')} s; "
             f"{m.get('pinning', '')}; file-descriptor limit {m.get('fd_limit')}; "
             f"load average (1/5/15 min) at start {' '.join(m.get('loadavg_at_start', '').split()[:3])}, "
             f"at end {' '.join(m.get('loadavg_at_end', '').split()[:3])}.\n")
    # Runs before 2026-11-24 have no "feature" in meta.json: they ran the lean feature.
    L.append(f"Feature: `{meta.get('feature', 'lean')}` (`./sling-vt run --feature`), store: "
             f"`{meta.get('store', 'segment')}`.\n")
    plan = meta.get("plan", {})
    L.append(f"Every configuration runs in its own fresh instance, all at the same time; each gets "
             f"{plan.get('warmup')} s of warm-up, then the points are measured configuration by configuration in an "
             f"order that rotates from point to point, so that a drift of the machine hits all alike. A point runs "
             f"{plan.get('duration')} s plus its expected ramp (C / throughput at the previous C, at most 40 s), and "
             f"the next starts only when the instance is idle again. Run took {meta.get('elapsed_s', '?')} s.\n")
    L.append("| configuration | what | started (s) | seeded (s) | verified (s) | warm-up (s) | stop (s) |")
    L.append("|---|---|---|---|---|---|---|")
    for inst in meta.get("instances", []):
        desc = meta.get("configs", {}).get(inst["config"], "")
        err = f" **failed: {inst['error']}**" if inst.get("error") else ""
        L.append(f"| {inst['config']} | {desc}{err} | {inst.get('startup_s', '–')} | {inst.get('seeded_s', '–')} | "
                 f"{inst.get('ready_s', '–')} | {inst.get('warmup_s', '–')} | {inst.get('stop_s', '–')} |")
    L.append("")
    L.append("Workloads (`GET /bin/vt/work.json?…` unless another path is named):\n")
    for w in d.workloads:
        wl = meta.get("workloads", {}).get(w, {})
        path = wl.get("path", "") + "?" if wl.get("path") else ""
        L.append(f"- **{w}** — {wl.get('desc', '')}: `{path}{wl.get('params', '')}`")
    L.append("")

    L.append("## Targets\n")
    L.append("| target | measured | verdict |")
    L.append("|---|---|---|")
    for t, v, vd in targets(d, meta):
        mark = ("✅ met" if vd == "met" else "– not measured" if vd == "not measured"
                else "noise floor" if vd == "info" else vd if vd.startswith("undecided") else "❌ " + vd)
        L.append(f"| {t} | {v} | {mark} |")
    L.append("")
    L += losses_first(d)
    L += physical_table(d, meta)

    cfgs = d.configs
    ratios = [(a, b) for a, b in (("vt-unbounded", "kernel-200"), ("vt-unbounded", "kernel-1000"),
                                  ("vt-unbounded", "felix-virtual"), ("vt-bounded", "vt-unbounded"),
                                  ("vt-unbounded", "vt-no-detector"), ("vt-unbounded", "vt-unbounded-twin"))
              if a in cfgs and b in cfgs]
    L.append("## Throughput (requests/s) and virtual:kernel ratios\n")
    L.append("Steady-state rate: successful responses (status below 400; failed answers are in the errors table, "
             "not here) per second, counted per wall-clock second by wrk's Lua hook, "
             "after the ramp and without the last second. The ramp ends once C responses have completed (every "
             "connection has had its first answer), and not before R + 1 s: under overload a fair scheduler "
             "(virtual threads) answers its first requests only after about C / throughput, a FIFO pool from the "
             "start, and counting from the first answers would favour FIFO. `results.csv` has the ramp (`ramp_s`), "
             "the window (`steady_window_s`) and the whole-run rate (`rps`). C/R is the Little's-law bound "
             "(C connections, nominal latency R). Measured p50 is in the next table.\n")
    L.append("| " + " | ".join(["workload", "C", "C/R"] + cfgs + [f"{a} : {b}" for a, b in ratios]) + " |")
    L.append("|---|---:|---:|" + "---:|" * (len(cfgs) + len(ratios)))
    for w, c in d.points():
        bound = next((d.get(cf, w, c, "little_bound_rps") for cf in cfgs if d.get(cf, w, c, "little_bound_rps")), None)
        cells = [fmt(d.get(cf, w, c, "thr")) for cf in cfgs]
        rc = [fmt_ratio(d.ratio(a, b, w, c)) for a, b in ratios]
        L.append("| " + " | ".join([w, f"{c:,}", fmt(bound)] + cells + rc) + " |")
    L.append("")

    if d.max_rounds > 1:
        L.append(f"## Run-to-run spread ({d.max_rounds} rounds)\n")
        L.append("Each point was measured in every round, all configurations one after the other (rotating order). "
                 "Throughput cells above are the median round; ratios are the median of the per-round ratios. "
                 "Per-round ratios, in round order:\n")
        L.append("| workload | C | " + " | ".join(f"{a} : {b}" for a, b in ratios) + " |")
        L.append("|---|---:|" + "---|" * len(ratios))
        for w, c in d.points():
            cells = [", ".join(f"{x:.2f}" for x in d.round_ratios(a, b, w, c)) or "–" for a, b in ratios]
            L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
        L.append("")

    L.append("## Latency p50 / p99 (ms) and errors\n")
    L.append("Errors: socket errors (connect + read + write + timeout) / non-2xx answers. Latencies of saturated "
             "kernel points are censored by the run length (requests still queued when wrk stops are not counted).\n")
    L.append("| workload | C | " + " | ".join(f"{cf} p50 / p99" for cf in cfgs) + " | "
             + " | ".join(f"{cf} errors" for cf in cfgs) + " |")
    L.append("|---|---:|" + "---:|" * (2 * len(cfgs)))
    for w, c in d.points():
        lat = [f"{fmt(d.get(cf, w, c, 'p50_ms'), 1)} / {fmt(d.get(cf, w, c, 'p99_ms'), 1)}"
               if d.get(cf, w, c, "p50_ms") else "–" for cf in cfgs]
        err = [f"{fmt(d.get(cf, w, c, 'socket_errors'))} / {fmt(d.get(cf, w, c, 'non2xx'))}"
               if d.get(cf, w, c, "p50_ms") else "–" for cf in cfgs]
        L.append(f"| {w} | {c:,} | " + " | ".join(lat) + " | " + " | ".join(err) + " |")
    L.append("")

    gc_when = ("`jcmd GC.run` in a tail after the measured window, under the same load"
               if meta.get("plan", {}).get("gc_tail_s") else "`jcmd GC.run` at 80 % of the run, inside the window")
    L.append("## Server resources\n")
    L.append("Live OS threads (peak of `/proc/<pid>/status` Threads, sampled every 0.5 s), peak RSS (MiB), heap "
             "after a full GC (MiB; " + gc_when + "), CPU (% of one core, utime+stime over the measured window). "
             "The heap is fixed and pre-touched (see the JVM options), so RSS differences are what lives outside it, "
             "thread stacks above all.\n")
    L.append("| workload | C | " + " | ".join(f"{cf} threads / RSS / heap / CPU" for cf in cfgs) + " |")
    L.append("|---|---:|" + "---:|" * len(cfgs))
    for w, c in d.points():
        cells = [(f"{fmt(d.get(cf, w, c, 'threads_max'))} / {fmt(d.get(cf, w, c, 'rss_max_mib'))} / "
                  f"{fmt(d.get(cf, w, c, 'heap_after_gc_mib'))} / {fmt(d.get(cf, w, c, 'cpu_pct'))} %")
                 if (cf, w, c) in d.by else "–" for cf in cfgs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    L += database_table(d, meta)
    L.append("## Plots\n")
    for w in [w for w in d.workloads if w not in PLOT_SKIP]:
        L.append(f"- {w}: [throughput](throughput-{w}.svg), [OS threads](threads-{w}.svg), [RSS](rss-{w}.svg)")
    L.append("")
    L.append("![throughput vs concurrency, R = 1 s](throughput-R1s.svg)\n" if "R1s" in d.workloads else "")
    L.append("Raw numbers: [results.csv](results.csv); run parameters and instance verification: [meta.json](meta.json).\n")
    return "\n".join(L)


def svg_chart(title, ylabel, xs, series, dashed=None, width=640, height=400):
    """Line chart; xs are categories placed evenly (concurrency levels), series: name -> [y or None]."""
    ml, mr, mt, mb = 70, 150, 40, 50
    pw, ph = width - ml - mr, height - mt - mb
    ys = [y for s in series.values() for y in s if y is not None]  # a dashed bound above the data is clipped
    if not ys and dashed:
        ys = [y for y in dashed[1] if y is not None]
    ymax = max(ys) if ys else 1
    if ymax <= 0:
        ymax = 1
    # nice upper bound
    mag = 10 ** (len(str(int(ymax))) - 1)
    for step in (1, 2, 2.5, 5, 10):
        if step * mag * 5 >= ymax:
            tick = step * mag
            break
    top = tick * 5 if tick * 5 >= ymax else tick * 6
    n = len(xs)

    def px(i):
        return ml + (pw * (i + 0.5) / n)

    def py(y):
        return mt + ph - ph * (y / top)

    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
         f'font-family="sans-serif" font-size="12">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{ml + pw / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>']
    k = 0
    while k * tick <= top + 1e-9:
        y = py(k * tick)
        o.append(f'<line x1="{ml}" y1="{y:.1f}" x2="{ml + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        label = f"{k * tick:,.0f}" if tick >= 1 else f"{k * tick:.2f}"
        o.append(f'<text x="{ml - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        k += 1
    o.append(f'<line x1="{ml}" y1="{mt + ph}" x2="{ml + pw}" y2="{mt + ph}" stroke="black"/>')
    o.append(f'<line x1="{ml}" y1="{mt}" x2="{ml}" y2="{mt + ph}" stroke="black"/>')
    for i, x in enumerate(xs):
        o.append(f'<text x="{px(i):.1f}" y="{mt + ph + 18}" text-anchor="middle">{x:,}</text>')
    o.append(f'<text x="{ml + pw / 2}" y="{height - 10}" text-anchor="middle">concurrency (connections)</text>')
    o.append(f'<text x="16" y="{mt + ph / 2}" text-anchor="middle" transform="rotate(-90 16 {mt + ph / 2})">'
             f'{escape(ylabel)}</text>')
    legend = []
    if dashed:
        pts = [(px(i), py(min(y, top))) for i, y in enumerate(dashed[1]) if y is not None]
        if pts:
            o.append('<polyline fill="none" stroke="#888" stroke-dasharray="5,4" stroke-width="1.5" points="'
                     + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
        legend.append((dashed[0], "#888", True))
    for name, vals in series.items():
        color = COLORS.get(name, "#333")
        pts = [(px(i), py(y)) for i, y in enumerate(vals) if y is not None]
        if len(pts) > 1:
            o.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="'
                     + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
        for a, b in pts:
            o.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3.5" fill="{color}"/>')
        legend.append((name, color, False))
    for j, (name, color, dash) in enumerate(legend):
        y = mt + 10 + j * 20
        x = ml + pw + 15
        o.append(f'<line x1="{x}" y1="{y}" x2="{x + 22}" y2="{y}" stroke="{color}" stroke-width="2"'
                 + (' stroke-dasharray="5,4"' if dash else "") + "/>")
        o.append(f'<text x="{x + 28}" y="{y + 4}">{escape(name)}</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


def write_all(out):
    rows = read_csv(os.path.join(out, "results.csv"))
    try:
        with open(os.path.join(out, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        meta = {}
    d = Data(rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(markdown(d, meta) + openload.section(out))
    for w in [w for w in d.workloads if w not in PLOT_SKIP]:
        wl = meta.get("workloads", {}).get(w, {})
        label = wl.get("desc", w).split(":")[0]
        bound = [num(next((d.get(cf, w, c, "little_bound_rps") for cf in d.configs
                           if d.get(cf, w, c, "little_bound_rps")), None)) for c in d.conc]
        for field, ylabel, fname, title, dashed in (
                ("thr", "requests/s (steady state)", "throughput", f"Throughput vs concurrency, {label}", ("C/R bound", bound)),
                ("threads_max", "live OS threads (peak)", "threads", f"Server OS threads vs concurrency, {label}", None),
                ("rss_max_mib", "RSS (MiB, peak)", "rss", f"Server RSS vs concurrency, {label}", None)):
            series = {cf: [num(d.get(cf, w, c, field)) for c in d.conc] for cf in d.configs}
            with open(os.path.join(out, f"{fname}-{w}.svg"), "w") as f:
                f.write(svg_chart(title, ylabel, d.conc, series, dashed))


if __name__ == "__main__":
    write_all(sys.argv[1] if len(sys.argv) > 1 else ".")
