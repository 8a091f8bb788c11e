"""The overload points one round cannot settle (issue #27: at least 3 rounds at decisive points). After the overload's
rounds, a point where one of the default's targets is not met yet lies within DECISIVE_MARGIN or twice the A/A spread
of its goal gets the rounds of --overload-decisive-rounds, configurations interleaved in each, as the closed model's
decisive points get theirs (verdicts.decisive_points)."""
import math

from . import hostprobe
from .data import num
from .overload_open_report import REFERENCE, index, ratios
from .plan import DEFAULT_VIRTUAL
from .verdicts import DECISIVE_MARGIN


# The share of its connections a client may still have had free at the end of a point and yet count as having run
# out of them: in full-2026-11-28b the capped points ended with 7,700-8,000 of 8,000 open, while repo200 at 200 %,
# short of connections by the rate alone, ended with auto's client at 5,852 (2,148 free): not capped.
FREE_AT_CAP = 0.05


def connection_bound(row):
    """True where the client ran out of connections: fewer than the rate times (timeout + 0.5 s)
    (overload_open.connections capped by the file-descriptor limit), and all but FREE_AT_CAP of them still open
    when the point ended (cut_off; rows without it are judged by the rate alone). Its backlog then waits in the
    client, late before it is sent, and another round on the same machine measures the same cap, not the server.
    The row keeps the rate to 0.1/s, the connections came from the exact rate: one connection less than the rounded
    rate asks for is not a cap."""
    rate, timeout, conns = num(row.get("target_rps")), num(row.get("timeout_s")), num(row.get("connections"))
    if rate is None or timeout is None or conns is None or conns >= math.ceil(rate * (timeout + 0.5)) - 1:
        return False
    open_at_end = num(row.get("cut_off"))
    return open_at_end is None or open_at_end >= (1 - FREE_AT_CAP) * conns


def decisive_points(rows, limit, v=DEFAULT_VIRTUAL, ref=REFERENCE):
    """[(workload, fraction)] of the overload points whose verdict more rounds may change, closest to its goal first,
    at most `limit`: a target of v against ref within max(DECISIVE_MARGIN, twice the twins' spread) of its goal, on
    either side (a narrow "met" gets the rounds as a narrow miss does, as in verdicts.decisive_points). Left out: a
    failed point (missed whatever the rounds say), a point where the client ran out of connections
    (connection_bound), and a throughput goal v met having lost nothing (it answered every request in time: no round
    can do better; the analogue of verdicts.at_bound)."""
    by, gaps = index(rows), {}
    for (cf, w, fr), a in by.items():
        k = by.get((ref, w, fr))
        if cf != v or not k or a.get("failed") or k.get("failed") or connection_bound(a) or connection_bound(k):
            continue
        for ratio, goal, spread, throughput in ratios(a, k, by, w, fr):
            if ratio is None or (throughput and ratio >= goal and not int(num(a.get("losses")) or 0)):
                continue
            # v and ref measured in two host states decide nothing (decision 0032): first where v falls short.
            gap, host = hostprobe.decisive_gap(ratio, goal, hostprobe.same_state(a, k) is False)
            if host or gap <= max(DECISIVE_MARGIN, 2 * (spread or 0)):
                gaps[(w, fr)] = min(gaps.get((w, fr), gap), gap)
    return sorted(gaps, key=lambda p: gaps[p])[:limit]
