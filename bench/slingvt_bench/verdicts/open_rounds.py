"""Rounds of the open model below capacity (openmodel.csv) and the p99 target of the default there (issue #27: p99
≤ kernel-200's, at least 3 rounds at decisive points). A p99 from 15 s at a few hundred requests a second rests on a
few dozen answers, and one round cannot settle a point at any distance from its goal (METHOD.md: open-model rounds). The rounds of a point run configurations interleaved, so the verdict takes the median
of the per-round ratios and the twins' largest difference over the rounds, as the closed model's (data.Data)."""
from slingvt_bench.core import open_rows
from slingvt_bench.core.rows import lower_median, median_rounds, num, rate_point, round_of
from slingvt_bench.core.setups import AA, DEFAULT_VIRTUAL, REFERENCE
from slingvt_bench.verdicts import host_state, p99_sampling
from slingvt_bench.verdicts.judge import row_at_bound

# The configurations the p99 target compares: only they run the decisive rounds (every one runs the first).
COMPARED = (REFERENCE,) + AA


def rounds_of(rows, config, w, fr):
    """{round: row} of one configuration at one point."""
    return {round_of(r): r for r in rows if r["config"] == config and rate_point(r) == (w, fr)}


def failed(rows, configs, w, fr):
    """The configurations among configs with a failed round at this point, or without any row there."""
    out = []
    for cf in configs:
        mine = rounds_of(rows, cf, w, fr)
        if not mine or any(r.get("failed") for r in mine.values()):
            out.append(cf)
    return out


def round_pairs(rows, a, b, w, fr, field="p99_ms"):
    """(round, b's field over a's, same host state) in every round both measured ("a's p99 ≤ b's" as a ratio ≥ 1); the
    state is hostprobe.same_state of the two rows (None without the probe). The overload's rows pair the same way
    (overload_rounds, field ok_per_s too)."""
    ra, rb = rounds_of(rows, a, w, fr), rounds_of(rows, b, w, fr)
    out = []
    for n in sorted(set(ra) & set(rb)):
        pa, pb = num(ra[n].get(field)), num(rb[n].get(field))
        if pa and pb is not None and not ra[n].get("failed") and not rb[n].get("failed"):
            out.append((n, pb / pa, host_state.same_state(ra[n], rb[n])))
    return out


def p99_pairs(rows, a, b, w, fr, field="p99_ms"):
    """(b's p99 (or field) over a's, same host state) of round_pairs."""
    return [(x, s) for _, x, s in round_pairs(rows, a, b, w, fr, field)]


def p99_ratios(rows, a, b, w, fr, field="p99_ms"):
    """The ratios of p99_pairs, of the rounds measured in one host state where the probe saw rounds in two
    (METHOD.md: one host state), else of every round."""
    return host_state.in_one_state(p99_pairs(rows, a, b, w, fr, field))[0]


def state_differed(rows, a, b, w, fr):
    """True when the probe saw every round of a and b at this point in two host states."""
    return host_state.only_two_states([s for _, s in p99_pairs(rows, a, b, w, fr)])


def spread(rows, w, fr, field="p99_ms", pair=AA):
    """The twins' (plan.AA, or pair) largest difference in p99 (or field) over the rounds of this point, or None
    without both."""
    rs = p99_ratios(rows, pair[1], pair[0], w, fr, field)  # A : B, as overload_open_report.aa_spread
    return max(abs(r - 1) for r in rs) if rs else None


def median_p99(rows, config, w, fr):
    """The (lower) median of a configuration's p99 over its measured rounds at this point, or None."""
    return lower_median([num(r["p99_ms"]) for r in rounds_of(rows, config, w, fr).values()
                         if not r.get("failed") and num(r.get("p99_ms")) is not None])


def within_sampling(rows, w, fr, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """Whether the round behind the median ratio (p99_ratios: in one host state where there is one) has v's and
    ref's p99s within each other's sampling error (p99_sampling.overlap, METHOD.md: p99 sampling error)."""
    ra, rb = rounds_of(rows, v, w, fr), rounds_of(rows, ref, w, fr)
    used = host_state.in_one_state([((x, n), s) for n, x, s in round_pairs(rows, v, ref, w, fr)])[0]
    return bool(used) and p99_sampling.overlap(*(r[lower_median(used)[1]] for r in (ra, rb)))


def median_rows(rows):
    """One row per (config, workload, fraction): the round with the (lower) median p99, for tables and plots."""
    return median_rounds(rows, "p99_ms")


def ratio(rows, w, fr, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """ref's p99 over v's at this point: the median of the per-round ratios, or None."""
    return lower_median(p99_ratios(rows, v, ref, w, fr))


def above_capacity(rows, closed, configs, w, fr):
    """Whether the offered rate at this point lay above every closed-model rate of the workload (closed: results.csv
    rows) measured in a host state that one of configs' rounds here was measured in (METHOD.md: p99 above capacity). A closed row the
    client's concurrency bounded (verdicts.row_at_bound) measured the client, not the server, and a failed one nothing:
    neither counts."""
    usable = [c for c in closed if c["workload"] == w and not c.get("failed") and not row_at_bound(c)]
    for r in rows:
        rate = num(r.get("target_rps"))
        if r["config"] not in configs or rate_point(r) != (w, fr) or r.get("failed") or not rate:
            continue
        for p in host_state.probes(r):
            there = [c for c in usable if host_state.in_state(p, c)]
            best = max((open_rows.capacity(there, cf, w) or 0.0 for cf in {c["config"] for c in there}), default=0.0)
            if best and rate > best:
                return True
    return False


def host_undecided(rows, w, fr, r, closed=None, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """Whether ratio r of v's and ref's p99 here decides nothing for the host: every round in two host states, and r
    within hostprobe.STATE_EFFECT of 1.0 (METHOD.md: one host state) or the offered rate above capacity in one of the two states,
    where a p99 grows with the queue, not by a factor (above_capacity, METHOD.md: p99 above capacity)."""
    return state_differed(rows, v, ref, w, fr) and (host_state.host_explains(r, 1.0)
                                                    or above_capacity(rows, closed or [], (v, ref), w, fr))


def decisive_points(rows, limit, v=DEFAULT_VIRTUAL, ref=REFERENCE, closed=None):
    """[(workload, fraction)] that get the decisive rounds, at most `limit`, closest to the goal first: every point
    where v and ref were both measured and none of their rounds failed (a failed point is missed whatever the rounds
    say). One round's p99 decides nothing at any distance from the goal: in the full runs of 2026-11-26 to 2026-12-02
    the twins' one-round p99s at R10ms 50 % were up to 2.1x apart and kernel-200's own three rounds at that point in
    one run 34.9 / 23.4 / 301.2 ms, while a one-round twin spread of 6 % let full-2026-12-02c miss it at 1.20x
    (METHOD.md: open-model rounds). The order (hostprobe.decisive_gap: measured in two host states and short of the goal first, then
    by distance) decides which points a smaller `limit` keeps. closed: the closed model's rows, for the capacity in
    each host state (host_undecided)."""
    gaps = {}
    for w, fr in dict.fromkeys(rate_point(r) for r in rows):
        r = ratio(rows, w, fr, v, ref)
        if r is None or failed(rows, [v, ref], w, fr):
            continue
        gaps[(w, fr)] = host_state.decisive_gap(r, 1.0, True, host_undecided(rows, w, fr, r, closed, v, ref))[0]
    return sorted(gaps, key=lambda p: gaps[p])[:limit]


def rounds_note(rows):
    """A sentence for results.md naming the points measured in more rounds, or "" when every point had one."""
    per = {}
    for r in rows:
        per[rate_point(r)] = max(per.get(rate_point(r), 1), round_of(r))
    more = {p: n for p, n in per.items() if n > 1}
    if not more:
        return ""
    return ("More rounds (--open-decisive-rounds, at most --open-decisive-points points, closest to the goal first; "
            "bench/METHOD.md: Open-model rounds): "
            + ", ".join(f"{w} {round(fr * 100)} % {n}" for (w, fr), n in more.items())
            + "; one elsewhere. The configurations are interleaved in each round; the table shows every round, the "
            "target takes the median of the per-round ratios and the twins' largest difference over the rounds. ")
