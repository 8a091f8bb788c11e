"""The overload points one round cannot settle (issue #27: at least 3 rounds at decisive points). After the overload's
rounds, a point where one of the default's targets is not met yet lies within DECISIVE_MARGIN or twice the A/A spread
of its goal gets the rounds of --overload-decisive-rounds, configurations interleaved in each, as the closed model's
decisive points get theirs (verdicts.decisive_points)."""
import math

from slingvt_bench.core.rows import num
from slingvt_bench.core.setups import DEFAULT_VIRTUAL, REFERENCE
from slingvt_bench.verdicts import host_state
from slingvt_bench.verdicts.judge import DECISIVE_MARGIN
from slingvt_bench.verdicts.overload import at_timeout, connection_bound, index, ratios

# The index of the target against v's own closed-model capacity among overload_open_report.ratios.
OWN_CAPACITY = 1


def decisive_points(rows, limit, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """[(workload, fraction)] of the overload points whose verdict more rounds may change, closest to its goal first,
    at most `limit`: a target of v against ref within max(DECISIVE_MARGIN, twice the twins' spread) of its goal, on
    either side (a narrow "met" gets the rounds as a narrow miss does, as in verdicts.decisive_points). Left out: a
    failed point (missed whatever the rounds say), a point where v's client ran out of connections (connection_bound),
    the comparisons with ref where ref's client did (another round measures the same cap; v's share of its own
    capacity involves no ref and keeps its rounds: full-2026-12-05 left page 130 % at one round, 86 % of its own
    capacity against a goal of 90 %, because kernel-200's connections were all taken), a throughput goal v met having
    lost nothing (it answered every request in time: no round can do better; the analogue of verdicts.at_bound), and
    a p99 comparison with both p99s at the client's timeout (at_timeout: every round measures the timeout)."""
    by, gaps = index(rows), {}
    for (cf, w, fr), a in by.items():
        k = by.get((ref, w, fr))
        if cf != v or not k or a.get("failed") or k.get("failed") or connection_bound(a):
            continue
        ref_capped = connection_bound(k)
        for i, (ratio, goal, spread, throughput) in enumerate(ratios(a, k, by, w, fr)):
            if ratio is None or (throughput and ratio >= goal and not int(num(a.get("losses")) or 0)):
                continue
            if ref_capped and i != OWN_CAPACITY:
                continue
            if not throughput and at_timeout(a, k):
                continue
            # v and ref measured in two host states decide nothing (METHOD.md: one host state): first where v falls short.
            gap, host = host_state.decisive_gap(ratio, goal, host_state.same_state(a, k) is False)
            if host or gap <= max(DECISIVE_MARGIN, 2 * (spread or 0)):
                gaps[(w, fr)] = min(gaps.get((w, fr), gap), gap)
    return sorted(gaps, key=lambda p: gaps[p])[:limit]
