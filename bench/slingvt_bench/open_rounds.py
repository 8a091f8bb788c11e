"""Rounds of the open model below capacity (openmodel.csv) and the p99 target of the default there (issue #27: p99
≤ kernel-200's, at least 3 rounds at decisive points). A p99 from 15 s at a few hundred requests a second rests on a
few dozen answers; one round cannot settle a point within a few percent of its goal (full-2026-11-28b: repo200 at
50 %, 102.8 against 101.3 ms). The rounds of a point run configurations interleaved, so the verdict takes the median
of the per-round ratios and the twins' largest difference over the rounds, as the closed model's (data.Data)."""
from .data import lower_median, num
from .plan import AA, DEFAULT_VIRTUAL
from .verdicts import DECISIVE_MARGIN

REFERENCE = "kernel-200"


def key(r):
    return r["workload"], float(r["fraction"])


def round_of(r):
    """The round of a row; rows written before rounds existed are round 1."""
    return int(r.get("round") or 1)


def rounds_of(rows, config, w, fr):
    """{round: row} of one configuration at one point."""
    return {round_of(r): r for r in rows if r["config"] == config and key(r) == (w, fr)}


def failed(rows, configs, w, fr):
    """The configurations among configs with a failed round at this point, or without any row there."""
    return [cf for cf in configs if not rounds_of(rows, cf, w, fr)
            or any(r.get("failed") for r in rounds_of(rows, cf, w, fr).values())]


def p99_ratios(rows, a, b, w, fr):
    """b's p99 over a's in every round both measured ("a's p99 ≤ b's" as a ratio ≥ 1)."""
    ra, rb = rounds_of(rows, a, w, fr), rounds_of(rows, b, w, fr)
    out = []
    for n in sorted(set(ra) & set(rb)):
        pa, pb = num(ra[n].get("p99_ms")), num(rb[n].get("p99_ms"))
        if pa and pb is not None and not ra[n].get("failed") and not rb[n].get("failed"):
            out.append(pb / pa)
    return out


def spread(rows, w, fr):
    """The twins' (plan.AA) largest difference in p99 over the rounds of this point, or None without both."""
    rs = p99_ratios(rows, AA[1], AA[0], w, fr)  # A : B, as overload_open_report.aa_spread
    return max(abs(r - 1) for r in rs) if rs else None


def median_p99(rows, config, w, fr):
    """The (lower) median of a configuration's p99 over its measured rounds at this point, or None."""
    return lower_median([num(r["p99_ms"]) for r in rounds_of(rows, config, w, fr).values()
                         if not r.get("failed") and num(r.get("p99_ms")) is not None])


def median_rows(rows):
    """One row per (config, workload, fraction): the round with the (lower) median p99, for tables and plots; a
    failed round stands for the point, as a failed point is missed."""
    groups = {}
    for r in rows:
        groups.setdefault((r["config"], *key(r)), []).append(r)
    out = []
    for group in groups.values():
        bad = [r for r in group if r.get("failed")]
        measured = sorted((r for r in group if num(r.get("p99_ms")) is not None),
                          key=lambda r: (num(r["p99_ms"]), round_of(r)))
        out.append(bad[0] if bad or not measured else measured[(len(measured) - 1) // 2])
    return out


def ratio(rows, w, fr, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """ref's p99 over v's at this point: the median of the per-round ratios, or None."""
    return lower_median(p99_ratios(rows, v, ref, w, fr))


def decisive_points(rows, limit, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """[(workload, fraction)] whose p99 verdict more rounds may change, closest to the goal first, at most `limit`:
    ref's p99 over v's within max(DECISIVE_MARGIN, twice the twins' spread) of 1.0 on either side (a narrow "met"
    gets the rounds as a narrow miss does). A failed point is left out: it is missed whatever the rounds say."""
    gaps = {}
    for w, fr in dict.fromkeys(key(r) for r in rows):
        r = ratio(rows, w, fr, v, ref)
        if r is None or failed(rows, [v, ref], w, fr):
            continue
        gap = abs(r - 1)
        if gap <= max(DECISIVE_MARGIN, 2 * (spread(rows, w, fr) or 0)):
            gaps[(w, fr)] = gap
    return sorted(gaps, key=lambda p: gaps[p])[:limit]


def rounds_note(rows):
    """A sentence for results.md naming the points measured in more rounds, or "" when every point had one."""
    per = {}
    for r in rows:
        per[key(r)] = max(per.get(key(r), 1), round_of(r))
    more = {p: n for p, n in per.items() if n > 1}
    if not more:
        return ""
    return ("More rounds at the decisive points (--open-decisive-rounds: the default's p99 within "
            f"{100 * DECISIVE_MARGIN:.0f} % or twice the A/A spread of kernel-200's): "
            + ", ".join(f"{w} {round(fr * 100)} % {n}" for (w, fr), n in more.items())
            + "; one elsewhere. The configurations are interleaved in each round; the table shows every round, the "
            "target takes the median of the per-round ratios and the twins' largest difference over the rounds. ")
