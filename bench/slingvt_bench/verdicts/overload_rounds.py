"""The overload targets that compare the default with the reference, judged round by round (METHOD.md: paired overload rounds). The
configurations of a round run one after the other under the same host and the same history (the first overload of
an instance is served oldest first until its clients' patience is known, in every configuration behind the
admission queue), so a round's two rows are a pair, and the target takes the median of the per-round ratios and the
twins' largest difference over the rounds, as the closed and open models do; the pairing is the open model's
(open_rounds.round_pairs). Each configuration's own median round compared a first round of one with a later round
of the other (repo200-overload-client-2026-12-02: p99 9,890.7 against 5,272.3 ms, round by round 0.99, 1.03 and
1.15)."""
from slingvt_bench.core.setups import aa_pair
from slingvt_bench.verdicts import host_state, open_rounds


def median_pair(rows, v, ref, w, fr, field, inverse=False):
    """(ratio, v's row, ref's row, per-round ratios used, left out) of the round behind the (lower) median ratio, of
    the rounds measured in one host state where the probe saw rounds in two (METHOD.md: one host state); None without a pair.
    The ratio is v's field over ref's, or ref's over v's with inverse (a p99, where less is better)."""
    pairs = open_rounds.round_pairs(rows, v, ref, w, fr, field) if inverse else \
        open_rounds.round_pairs(rows, ref, v, w, fr, field)
    used, left_out = host_state.in_one_state([((x, n), s) for n, x, s in pairs])
    if not used:
        return None
    ratio, n = sorted(used)[(len(used) - 1) // 2]
    return (ratio, open_rounds.rounds_of(rows, v, w, fr)[n], open_rounds.rounds_of(rows, ref, w, fr)[n],
            [x for x, _ in used], left_out)


def spread(rows, w, fr, field):
    """The twins' (plan.aa_pair) largest difference in field, |A : B - 1|, over the rounds of this point (of those in
    one host state where there are such), or None without both."""
    return open_rounds.spread(rows, w, fr, field, aa_pair({r["config"] for r in rows}))


def per_round_note(ratios, left_out, fmt="{:.2f}", used_round=1):
    """' (median of 3 rounds: 0.99 / 1.03 / 1.15)' where more than one round counts; ' (round 2: of the rounds in one
    host state)' where one counts and others were left out; else ''."""
    if len(ratios) < 2:
        return f" (round {used_round}: of the rounds in one host state)" if left_out else ""
    return (f" (median of {len(ratios)} rounds: " + " / ".join(fmt.format(x) for x in ratios)
            + (", rounds in two host states left out" if left_out else "") + ")")
