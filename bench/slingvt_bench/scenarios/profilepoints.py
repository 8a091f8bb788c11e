"""./sling-vt profile's points (--concurrency): closed ones (wrk at N connections) and open ones (oha at a rate, or
at a share of the instance's own closed-model answers a second, measured just before)."""
from slingvt_bench.core.common import BenchError


def parse_points(text):
    """--concurrency "1000,8000@978,8000@90%": [(connections, rate, share)], in order. A rate makes it an open-model
    point (oha); a share (0.9 for "90%") makes it one at that share of the last closed point's answers a second, so
    that an open load sits where the instance's own capacity is in its present state, not in another run's."""
    points = []
    for item in text.split(","):
        conns, _, rate = item.strip().partition("@")
        share = rate.endswith("%")
        try:
            value = float(rate.rstrip("%")) if rate else 0.0
            points.append((int(conns), 0.0 if share else value, value / 100 if share else 0.0))
        except ValueError:
            raise BenchError("--concurrency takes N, N@RATE or N@PERCENT% items separated by commas; "
                             f"got {item!r}") from None
        if points[-1][0] < 1 or value < 0 or (rate and value == 0):
            raise BenchError(f"--concurrency: connections must be 1 or more and a rate positive; got {item!r}")
    if points and points[0][2]:
        raise BenchError("--concurrency: a PERCENT% point needs a closed point (N) before it")
    return points


def open_rate(index, rate, share, closed_rps):
    """The requests a second of point index (from 1): its rate, or its share of closed_rps (the last closed point's
    answers over its whole duration, ramp included, in the same instance); 0 for a closed point."""
    if not share:
        return rate
    if round(share * closed_rps) < 1:
        raise BenchError(f"point {index}: {100 * share:g} % of the closed point before it, which answered "
                         f"{closed_rps:.1f}/s, is no rate")
    return round(share * closed_rps)
