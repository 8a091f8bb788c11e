"""The targets of a default that is safe to switch on (issue #27), judged for plan.DEFAULT_VIRTUAL against its A/A
twin's spread: the closed model against the better kernel pool and against unbounded, no 503 where kernel-200
answered everything, and the open model's p99 below capacity. The overload targets are overload_open_report's."""
import os

from slingvt_bench.core import open_rows, overload_rows
from slingvt_bench.core.rows import fmt_ratio, num, rate_point
from slingvt_bench.core.setups import AA, DEFAULT_VIRTUAL, KEPT_GOAL, KEPT_WINS, REFERENCE
from slingvt_bench.verdicts import mixed, open_rounds, overload as overload_open_report
from slingvt_bench.verdicts.host_state import host_explains
from slingvt_bench.verdicts.judge import HOST_UNDECIDED, aa_spread, better_kernel, judged, unless_even_split, \
    verdict

UNBOUNDED = "vt-unbounded"
OVER_CAPACITY = "undecided (measured in two host states, above capacity in one of them, bench/METHOD.md: P99 above capacity)"
SAMPLING = "undecided (within the p99s' sampling error, bench/METHOD.md: P99 sampling error)"


def applies(d):
    """Whether this run measured the judged default with its twin (runs before 2026-11-26 did not)."""
    return all(c in d.configs for c in AA)


def closed(d, v=DEFAULT_VIRTUAL):
    """(target, measured, verdict) per point: v against the better kernel pool (goal 1.0) and, at R100ms / R1s from
    C = 1,000, against unbounded (goal 0.97); then no 503 where kernel-200 answered every request."""
    out = []
    for w, c in d.points():
        b = better_kernel(d, w, c)
        if b is None:
            continue
        r = d.ratio(v, b, w, c)
        out.append((f"closed {w} C={c:,}: {v} ≥ 1.0 × the better kernel pool ({b})", fmt_ratio(r),
                    judged(d, [v, b], [(w, c)], r, 1.0, aa_spread(d, w, c))))
    for w, c in d.points():
        if w in KEPT_WINS and c >= 1000 and (UNBOUNDED, w, c) in d.by:
            r = d.ratio(v, UNBOUNDED, w, c)
            out.append((f"closed {w} C={c:,}: {v} ≥ {KEPT_GOAL} × {UNBOUNDED} (its wins kept)", fmt_ratio(r),
                        judged(d, [v, UNBOUNDED], [(w, c)], r, KEPT_GOAL, aa_spread(d, w, c))))
    clean = [(w, c) for w, c in d.points() if (REFERENCE, w, c) in d.by and not d.failed(REFERENCE, w, c)
             and not num(d.get(REFERENCE, w, c, "socket_errors")) and not num(d.get(REFERENCE, w, c, "non2xx"))]
    bad = [f"{w} C={c:,}: {int(num(d.get(v, w, c, 'non2xx')) or 0):,} non-2xx" for w, c in clean
           if num(d.get(v, w, c, "non2xx"))]
    out.append((f"closed: {v} no 503 (no non-2xx) at every point where {REFERENCE} answered every request",
                f"{len(clean)} such points" + (": " + "; ".join(bad) if bad else ", 0 non-2xx"),
                "not measured" if not clean else "MISSED: " + "; ".join(bad) if bad else "met"))
    return out


def open_p99(rows, v=DEFAULT_VIRTUAL, ref=REFERENCE, closed=None):
    """(target, measured, verdict) per workload and load below capacity: v's p99 ≤ ref's, as the median over the
    rounds of ref's p99 over v's (open_rounds), undecided within the twins' largest difference in p99 there, and
    where the host decides it (open_rounds.host_undecided, with the closed model's rows in closed); a failed run of
    either is MISSED."""
    out = []
    for w, fr in dict.fromkeys(rate_point(r) for r in rows):
        label = f"open model {w} at {round(fr * 100)} % of {ref}'s capacity: {v} p99 ≤ {ref}'s"
        if open_rounds.failed(rows, [v, ref], w, fr):
            out.append((label, "failed or not measured", "MISSED"))
            continue
        pa, pk, pt = (open_rounds.median_p99(rows, cf, w, fr) for cf in (v, ref, AA[1]))
        r = open_rounds.ratio(rows, w, fr, v, ref)
        per = open_rounds.p99_ratios(rows, v, ref, w, fr)
        left = len(open_rounds.p99_pairs(rows, v, ref, w, fr)) - len(per)
        measured = (f"{pa:,.1f} vs {pk:,.1f} ms" if pa is not None and pk is not None else "no p99")
        if len(per) > 1 or left:
            measured += (f" (medians of {len(per) + left} rounds; {ref} : {v} per round "
                         + " / ".join(f"{x:.3f}" for x in per)
                         + (f" in one host state, {left} in two left out" if left else "") + ")")
        measured += f" (twin {pt:,.1f})" if pt is not None and not open_rounds.failed(rows, [AA[1]], w, fr) else ""
        host = r is not None and open_rounds.host_undecided(rows, w, fr, r, closed, v, ref)
        over = host and not host_explains(r, 1.0)
        vd = None if r is None or host else verdict(r, 1.0, open_rounds.spread(rows, w, fr))
        vd = unless_even_split(vd, per)
        if vd in ("met", "MISSED") and open_rounds.within_sampling(rows, w, fr, v, ref):
            vd = SAMPLING
        out.append((label, measured, "not measured" if r is None else OVER_CAPACITY if over else HOST_UNDECIDED
                    if host else vd))
    return out


def judged_targets(out, d):
    """(missed, undecided, met, the rest) of every target of the safe default in the run in out, each a list of
    (target, measured, verdict) in the order of the results."""
    rows = closed(d)
    rows += open_p99(open_rows.read_csv(os.path.join(out, "openmodel.csv")), closed=d.rows)
    over = overload_rows.read_csv(os.path.join(out, "overload.csv"))
    rows += [(f"overload {t}", m, vd) for t, m, vd in overload_open_report.targets(over, closed=d.rows)]
    rows += mixed.targets(open_rows.read_csv(os.path.join(out, "openmodel.csv")), over, d.rows)
    missed = [t for t in rows if t[2].startswith("MISSED")]
    undecided = [t for t in rows if t[2].startswith("undecided")]
    met = [t for t in rows if t[2] == "met"]
    return missed, undecided, met, [t for t in rows if t not in missed + undecided + met]
