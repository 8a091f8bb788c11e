"""One verdict: met / MISSED / undecided against the A/A twins' spread, failed points, host states, Little's bound."""
from slingvt_bench.core.rows import KERNEL, num
from slingvt_bench.core.setups import aa_pair
from slingvt_bench.verdicts import host_state


def aa_spread(d, w, c, field="thr"):
    """How far two identical instances (plan.aa_pair) differed at this point, as a fraction (0.04 = 4 %), or None
    when the twin was not measured here; in throughput, or in another field (cpu_ms, threads_max)."""
    rs = d.round_ratios(*aa_pair(d.configs), w, c, field)
    return max(abs(r - 1) for r in rs) if rs else None


def aa_line(d):
    a, b = aa_pair(d.configs)
    aa = [(w, c, d.round_ratios(a, b, w, c)) for w, c in d.points()]
    flat = sorted(x for _, _, rs in aa for x in rs)
    if not flat:
        return []
    return [(f"A/A control (not a target): {a} : {b}, two identical instances",
             f"{len(flat)} measurements, {flat[0]:.2f}–{flat[-1]:.2f}×", "info")]


# The twins' spread and the measured gap are ratios to different bases: the same gap (0.8 ms between p99s of 997.6
# and 998.4 ms, and of 998.4 and 999.2 ms) comes out a few parts in a million apart, far below the one decimal a
# row reports (1e-4 of a second-long p99). A gap beyond the spread by less than TIE is the spread's own (METHOD.md: ties).
TIE = 1e-4


# Without the A/A twin there is no spread to judge a ratio against (a quick run): the ratio is shown, not judged.
RATIO_ONLY = "ratio only (no A/A twin in a quick run)"


# The median of an even number of rounds is any value between the middle two. Where the goal lies between them the
# median is on both sides of it and decides nothing; the lower median alone would always take the default's worse
# round (every ratio here is "higher is better" for the default). METHOD.md: An even number of rounds.
EVEN_SPLIT = ("undecided (an even number of rounds, the middle two on both sides of the goal, "
              "bench/METHOD.md: An even number of rounds)")


def even_split(ratios, goal):
    """Whether an even number of per-round ratios has its middle two on both sides of goal (one below it, one at or
    above it)."""
    if not ratios or len(ratios) % 2:
        return False
    s = sorted(ratios)
    return s[len(s) // 2 - 1] < goal <= s[len(s) // 2]


def unless_even_split(vd, ratios, goal=1.0):
    """A met or MISSED verdict vd, or EVEN_SPLIT where the per-round ratios behind it are split by the goal."""
    return EVEN_SPLIT if vd in ("met", "MISSED") and even_split(ratios, goal) else vd


def verdict(measured, goal, spread):
    """met / MISSED / undecided: a ratio within the A/A spread of its goal (up to TIE) decides nothing."""
    if measured is None:
        return "not measured"
    if spread is not None and abs(measured / goal - 1) <= spread + TIE:
        return f"undecided (within the A/A spread of ±{100 * spread:.0f} %)"
    return "met" if measured >= goal else "MISSED"


def failures(d, configs, pts):
    """'config workload C=c' for every point of pts where a round of one of configs failed (data.failed_row)."""
    return [f"{cf} {w} C={c}" for w, c in pts for cf in configs if d.failed(cf, w, c)]


def host_undecided(d, a, b, w, c, measured, goal):
    """Whether a : b at this point decides nothing because the probe saw every round of the two in different host
    states and the ratio is within STATE_EFFECT of its goal (what the host alone has moved a throughput by)."""
    return host_state.host_explains(measured, goal) and d.state_differed(a, b, w, c)


HOST_UNDECIDED = "undecided (the two measured in different host states only, bench/METHOD.md: One host state)"


def judged(d, configs, pts, measured, goal, spread):
    """verdict(), except that a failed measurement of configs at pts makes it MISSED: a target cannot be met, nor
    left open, by a point that was not measured; and that a ratio of two configurations at one point measured in
    different host states only (host_undecided) is undecided."""
    bad = failures(d, configs, pts)
    if bad:
        return f"MISSED (failed: {', '.join(bad)})"
    if len(configs) == 2 and len(pts) == 1 and host_undecided(d, *configs, *pts[0], measured, goal):
        return HOST_UNDECIDED
    return verdict(measured, goal, spread)


def has_twin(configs):
    """Whether a run that measured these configurations measured an A/A pair (setups.aa_pair) at all."""
    return all(c in configs for c in aa_pair(configs))


def ratios_only(targets, configs):
    """targets ((target, measured, verdict) each) as a run that measured these configurations may show them: where
    it measured no A/A pair (a quick run) there is no spread to judge against, so met, MISSED and undecided become
    RATIO_ONLY; a failed point stays MISSED (it was not measured)."""
    if has_twin(configs):
        return targets
    return [(t, m, RATIO_ONLY if vd == "met" or (vd.startswith(("MISSED", "undecided")) and "failed" not in vd)
             else vd) for t, m, vd in targets]


def better_kernel(d, w, c):
    """Whichever kernel pool answered more at this point, or None when neither was measured."""
    measured = [k for k in KERNEL if num(d.get(k, w, c, "thr")) is not None]
    return max(measured, key=lambda k: num(d.get(k, w, c, "thr")), default=None)


def max_spread(spreads):
    """The largest of several A/A spreads (None where the twin was not measured), or None."""
    spreads = [s for s in spreads if s is not None]
    return max(spreads) if spreads else None


# A point where every configuration reached this share of Little's bound C/R is decided by the bound.
AT_BOUND = 0.97


def row_at_bound(row, share=AT_BOUND):
    """Whether a closed-model row made at least `share` of Little's bound C/R (little_bound_rps): its clients bounded
    its rate, not the server, so it says nothing about the server's capacity."""
    thr, bound = num(row.get("rps_steady")) or num(row.get("rps")), num(row.get("little_bound_rps"))
    return bool(thr and bound and thr >= share * bound)


def at_bound(d, w, c):
    """Whether every configuration measured at this point made at least AT_BOUND of C/R."""
    pts = [(num(d.get(cf, w, c, "thr")), num(d.get(cf, w, c, "little_bound_rps"))) for cf in d.configs
           if (cf, w, c) in d.by]
    return bool(pts) and all(t and b and t >= AT_BOUND * b for t, b in pts)


# A ratio this close to its goal (or within twice the A/A spread of it) may land on the other side with one more
# round: such a point is decisive and gets the extra rounds of --decisive-rounds.
DECISIVE_MARGIN = 0.15
