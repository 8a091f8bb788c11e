"""The targets of issue #13 that can fail, each met / missed / undecided (a ratio inside the A/A twin's spread
is undecided, never met), and the physical limit min(C/R, X_cpu) of a point."""


from slingvt_bench.core.rows import KERNEL, VIRTUAL, WHOLE_RUN_MARK, fmt_ratio, num
from slingvt_bench.verdicts.judge import aa_line, aa_spread, better_kernel, failures, judged, max_spread, verdict


def comparisons(d):
    """Every point of every virtual configuration against the better kernel pool there: (virtual, workload, C,
    ratio, kernel, spread), failed points first (ratio None, kernel the failed pool or None), then the losses
    (lowest ratio first), then the rest in point order."""
    rows = []
    for v in [c for c in VIRTUAL if c in d.configs]:
        for w, c in d.points():
            best = better_kernel(d, w, c)
            failed_k = next((k for k in KERNEL if d.failed(k, w, c)), None)
            if (v, w, c) in d.by and (d.failed(v, w, c) or failed_k):
                rows.append((v, w, c, None, failed_k or best, aa_spread(d, w, c)))
                continue
            r = None if best is None else d.ratio(v, best, w, c)
            if r is not None:
                rows.append((v, w, c, r, best, aa_spread(d, w, c)))
    return sorted(rows, key=lambda t: (t[3] is not None, t[3] is not None and t[3] >= 1,
                                       t[3] if t[3] is not None and t[3] < 1 else 0))


def targets_postgres(d, meta):
    """Targets of issue #12 (Oak on PostgreSQL)."""
    out = []
    for v in ("vt-unbounded", "vt-bounded"):
        r = d.ratio(v, "kernel-200", "cold50", 1000)
        out.append((f"C=1,000, cold reads: {v} ≥ 2 × kernel-200", fmt_ratio(r),
                    judged(d, [v, "kernel-200"], [("cold50", 1000)], r, 2.0, aa_spread(d, "cold50", 1000))))
    errors = [(cf, w, c, num(d.get(cf, w, c, "socket_errors")) or 0, num(d.get(cf, w, c, "non2xx")) or 0)
              for cf in d.configs if cf in VIRTUAL for w, c in d.points() if (cf, w, c) in d.by]
    bad = [f"{cf} {w} C={c} ({int(se)} socket, {int(nx)} non-2xx)" for cf, w, c, se, nx in errors if se or nx]
    bad += [f"{f} (failed)" for f in failures(d, [cf for cf in d.configs if cf in VIRTUAL], d.points())]
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
    """A per-point ratio target: met only where the ratio clears the goal by more than that point's A/A spread; a
    point where either configuration failed counts as missed."""
    rows = [(w, c, d.ratio(a, b, w, c), aa_spread(d, w, c)) for w, c in d.points()]
    rows = [(w, c, r, sp) for w, c, r, sp in rows
            if r is not None or (failures(d, [a, b], [(w, c)]) and (a, w, c) in d.by and (b, w, c) in d.by)]
    if not rows:
        return (label, "not measured", "not measured")
    verdicts = [(w, c, r, judged(d, [a, b], [(w, c)], r, goal, sp)) for w, c, r, sp in rows]
    failed = [f"{w} C={c} (failed: {' and '.join(cf for cf in (a, b) if d.failed(cf, w, c))})"
              for w, c, r, v in verdicts if v.startswith("MISSED (failed")]
    missed = [f"{w} C={c} ({r:.2f}×)" for w, c, r, v in verdicts if v == "MISSED"] + failed
    undecided = [f"{w} C={c} ({r:.2f}×)" for w, c, r, v in verdicts if v.startswith("undecided")]
    no_aa = sum(1 for *_, sp in rows if sp is None)
    whole = sum(1 for w, c, *_ in rows if d.get(a, w, c, "thr_note") or d.get(b, w, c, "thr_note"))
    notes = [f"{len(failed)} of the missed failed" if failed else "", f"{no_aa} without an A/A twin" if no_aa else "",
             f"{whole} on a whole-run rate {WHOLE_RUN_MARK}" if whole else ""]
    measured = (f"{len(rows)} points: {len(rows) - len(missed) - len(undecided)} met, {len(missed)} missed, "
                f"{len(undecided)} undecided" + (f" ({'; '.join(n for n in notes if n)})" if any(notes) else ""))
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
    for a in ("vt-unbounded", "vt-adaptive", "vt-adaptive-queue"):
        for b in ("kernel-200", "kernel-1000", "felix-virtual"):
            if a in d.configs and b in d.configs:
                out.append(every_point(d, a, b, 1.0, f"every point: {a} ≥ 1.0 × {b}"))
    for w in ("R100ms", "R10ms"):
        r = d.ratio("vt-adaptive", "vt-unbounded", w, 100)
        out.append((f"C=100, {w}: adaptive admission ≥ 0.97 × vt-unbounded",
                    fmt_ratio(r) if r is not None or d.failed("vt-adaptive", w, 100) or d.failed("vt-unbounded", w, 100)
                    else "not measured (no adaptive configuration yet)",
                    judged(d, ["vt-adaptive", "vt-unbounded"], [(w, 100)], r, 0.97, aa_spread(d, w, 100))))
    # The wait-dominated, CPU and thread targets for each virtual setup of ours that ran: unbounded (the default)
    # and adaptive (opt-in: maxConcurrentRequests=auto).
    for v in [v for v in ("vt-adaptive", "vt-adaptive-queue", "vt-unbounded") if v in d.configs] or ["vt-unbounded"]:
        out += setup_targets(d, v, nproc)
    out += detector_target(d)
    out += aa_line(d)
    return out


def setup_targets(d, v, nproc):
    """R1s share of the physical limit, CPU per request from C=1,000 to 8,000 and OS threads, for setup v."""
    out = []
    for c in (4000, 8000):
        thr, lim = num(d.get(v, "R1s", c, "thr")), physical_limit(d, "R1s", c, nproc)
        r = thr / lim if thr and lim else None
        out.append((f"C={c:,}, R=1 s: {v} ≥ 90 % of min(C/R, X_cpu)",
                    "not measured" if r is None else f"{thr:,.0f} of {lim:,.0f} req/s = {100 * r:.0f} %",
                    judged(d, [v], [("R1s", c)], r, 0.9, aa_spread(d, "R1s", c))))
    cpu = {c: (num(d.get(v, "R1s", c, "cpu_pct")), num(d.get(v, "R1s", c, "thr")))
           for c in (1000, 8000)}
    if failures(d, [v], [("R1s", 1000), ("R1s", 8000)]):
        out.append((f"R=1 s: {v} CPU per request at C=8,000 within 10 % of C=1,000", "failed",
                    judged(d, [v], [("R1s", 1000), ("R1s", 8000)], None, 1.0, None)))
    elif all(a and b for a, b in cpu.values()):
        ms = {c: 10.0 * a / b for c, (a, b) in cpu.items()}  # ms of CPU per request: (cpu% / 100) / (req/s) * 1000
        grow = ms[8000] / ms[1000]
        # "grow ≤ 1.10" as a ratio that must reach its goal: 1.10 / grow ≥ 1; the twins' difference in CPU per
        # request at either C is the noise (the larger of the two).
        sp = max_spread(aa_spread(d, "R1s", c, "cpu_ms") for c in (1000, 8000))
        out.append((f"R=1 s: {v} CPU per request at C=8,000 within 10 % of C=1,000",
                    f"{ms[1000]:.2f} → {ms[8000]:.2f} ms ({100 * (grow - 1):+.0f} %)", verdict(1.10 / grow, 1.0, sp)))
    else:
        out.append((f"R=1 s: {v} CPU per request at C=8,000 within 10 % of C=1,000", "not measured",
                    "not measured"))
    th = [(num(d.get(v, w, c, "threads_max")), w, c) for w, c in d.points()]
    th = [t for t in th if t[0] is not None]
    peak, pw, pc = max(th, key=lambda t: t[0]) if th else (None, None, None)
    # "peak ≤ 60" as 60 / peak ≥ 1, against the twins' difference in threads at the peak point.
    out.append((f"under load, virtual mode: ≤ 60 live OS threads ({v}, every point)",
                f"peak {peak:.0f} ({pw} C={pc:,})" if th else "failed" if failures(d, [v], d.points()) else
                "not measured",
                "not measured" if not th and not failures(d, [v], d.points()) else
                judged(d, [v], d.points(), 60 / peak if th else None, 1.0, aa_spread(d, pw, pc, "threads_max"))))
    return out


def detector_target(d):
    """The JFR pinning detector's cost: vt-unbounded : vt-no-detector, median over the points both ran, against
    0.97; undecided within the largest A/A spread of those points."""
    both = [(w, c) for w, c in d.points() if ("vt-unbounded", w, c) in d.by and ("vt-no-detector", w, c) in d.by]
    pts = [(w, c, d.ratio("vt-unbounded", "vt-no-detector", w, c)) for w, c in both]
    pts = [(w, c, r) for w, c, r in pts if r is not None]
    if not both:
        return []
    rs = sorted(r for *_, r in pts)
    med = rs[len(rs) // 2] if rs else None
    sp = max_spread(aa_spread(d, w, c) for w, c, _ in pts)
    return [("pinning detector costs nothing measurable: vt-unbounded : vt-no-detector (median over points ≥ 0.97)",
             f"median {med:.2f}×, range {rs[0]:.2f}–{rs[-1]:.2f}× over {len(rs)} points" if rs else "failed",
             judged(d, ["vt-unbounded", "vt-no-detector"], both, med, 0.97, sp))]
