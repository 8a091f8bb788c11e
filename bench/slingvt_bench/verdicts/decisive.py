"""The closed-model points whose verdict one round cannot settle (they get the decisive rounds)."""
from slingvt_bench.core.rows import num
from slingvt_bench.core.setups import KEPT_GOAL, KEPT_WINS, aa_pair
from slingvt_bench.verdicts import host_state
from slingvt_bench.verdicts.closed import physical_limit
from slingvt_bench.verdicts.judge import DECISIVE_MARGIN, aa_spread, at_bound, better_kernel


def decisive_configs(configs, w, c, default_virtual):
    """The configurations a decisive point measures again: those its targets compare (decisive_points). That is
    every one but vt-unbounded, which only the wins-kept target compares (KEPT_WINS from C = 1,000), unless it is
    the judged default or one of the A/A pair."""
    unbounded = (w in KEPT_WINS and c >= 1000) or "vt-unbounded" in (default_virtual, *aa_pair(configs))
    return [n for n in configs if n != "vt-unbounded" or unbounded]


def decisive_points(d, grid, default_virtual, nproc, limit):
    """The points whose verdict one round cannot settle, at most `limit`: the default virtual setup against the better
    kernel pool and felix-virtual (goal 1.0), against unbounded at R1s and R100ms from C=1,000 (0.97: the wins of
    unbounded kept), and R1s at C=4,000/8,000 as a share of min(C/R, X_cpu) (0.9). Where every configuration made C/R,
    only a goal the default falls short of counts. Shortfalls go first, closest to their goal first, then leads by
    their distance: one round short of its goal beyond the twins' spread is judged missed, and only more rounds can
    confirm or clear that (full-2026-12-05b: R1s C=4,000 0.89x unbounded kept its one round while four leads of
    2-8 % took rounds from the budget of 7)."""
    gaps = {}

    def consider(w, c, r, goal, b=None):
        if r is None:
            return
        if r >= goal and at_bound(d, w, c):
            return  # every configuration made C/R and the default is not behind: physics decided the point
        # Rounds in two host states decide nothing: such a point may get another round (hostprobe.decisive_gap).
        gap, host = host_state.decisive_gap(r, goal, bool(b) and d.state_differed(default_virtual, b, w, c))
        if host or gap <= max(DECISIVE_MARGIN, 2 * (aa_spread(d, w, c) or 0)):
            key = (r >= goal, gap)
            gaps[(w, c)] = min(gaps.get((w, c), key), key)

    for w, c in grid:
        # At C/R a default a percent behind is judged MISSED outside the twins' spread, as anywhere: it gets the
        # rounds too, so that a median, not one round's ramp, decides (full-2026-11-28: R1s C = 1,000 0.99x, one round).
        for b in [better_kernel(d, w, c), "felix-virtual"]:
            if b:
                consider(w, c, d.ratio(default_virtual, b, w, c), 1.0, b)
        if c >= 1000 and w in KEPT_WINS and default_virtual != "vt-unbounded":
            consider(w, c, d.ratio(default_virtual, "vt-unbounded", w, c), KEPT_GOAL, "vt-unbounded")
        if w == "R1s" and c in (4000, 8000):
            thr, lim = num(d.get(default_virtual, w, c, "thr")), physical_limit(d, w, c, nproc)
            consider(w, c, thr / lim if thr and lim else None, 0.9)
    return sorted(gaps, key=lambda p: gaps[p])[:limit]
