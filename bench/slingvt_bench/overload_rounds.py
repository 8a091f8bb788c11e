"""The overload targets that compare the default with the reference, judged round by round (decision 0042). The
configurations of a round run one after the other under the same host and the same history (the first overload of
an instance is served oldest first until its clients' patience is known, in every configuration behind the
admission queue), so a round's two rows are a pair, and the target takes the median of the per-round ratios and the
twins' largest difference over the rounds, as the closed and open models do. Each configuration's own median round
compared a first round of one with a later round of the other (repo200-overload-client-2026-12-02: p99 9,890.7
against 5,272.3 ms, round by round 0.99, 1.03 and 1.15)."""
from . import hostprobe
from .data import num, rate_point, round_of
from .plan import aa_pair


def rounds_at(rows, config, w, fr):
    """{round: row} of one configuration at one overload point, failed rounds left out."""
    return {round_of(r): r for r in rows if r["config"] == config and rate_point(r) == (w, fr) and not r.get("failed")}


def pairs(rows, a, b, w, fr, field, inverse=False):
    """[(ratio, same host state, a's row, b's row)] in every round both measured: a's field over b's, or b's over a's
    with inverse (a p99, where less is better); rounds where the divisor is missing or 0 are left out."""
    ra, rb = rounds_at(rows, a, w, fr), rounds_at(rows, b, w, fr)
    out = []
    for n in sorted(set(ra) & set(rb)):
        x, y = num(ra[n].get(field)), num(rb[n].get(field))
        if inverse:
            x, y = y, x
        if x is not None and y:
            out.append((x / y, hostprobe.same_state(ra[n], rb[n]), ra[n], rb[n]))
    return out


def median_pair(rows, v, ref, w, fr, field, inverse=False):
    """(ratio, v's row, ref's row, per-round ratios used, left out) of the round behind the (lower) median ratio, of
    the rounds measured in one host state where the probe saw rounds in two (decision 0032); None without a pair."""
    ps = pairs(rows, v, ref, w, fr, field, inverse)
    used, left_out = hostprobe.in_one_state([(p, p[1]) for p in ps])
    if not used:
        return None
    pick = sorted(used, key=lambda p: (p[0], round_of(p[2])))[(len(used) - 1) // 2]
    return pick[0], pick[2], pick[3], [p[0] for p in used], left_out


def spread(rows, w, fr, field):
    """The twins' (plan.aa_pair) largest difference in field, |A : B - 1|, over the rounds of this point (of those in
    one host state where there are such), or None without both."""
    a, b = aa_pair({r["config"] for r in rows})
    ps = pairs(rows, a, b, w, fr, field)
    used = hostprobe.in_one_state([(x, s) for x, s, *_ in ps])[0]
    return max(abs(x - 1) for x in used) if used else None


def per_round_note(ratios, left_out, fmt="{:.2f}", used_round=1):
    """' (median of 3 rounds: 0.99 / 1.03 / 1.15)' where more than one round counts; ' (round 2: of the rounds in one
    host state)' where one counts and others were left out; else ''."""
    if len(ratios) < 2:
        return f" (round {used_round}: of the rounds in one host state)" if left_out else ""
    return (f" (median of {len(ratios)} rounds: " + " / ".join(fmt.format(x) for x in ratios)
            + (", rounds in two host states left out" if left_out else "") + ")")

