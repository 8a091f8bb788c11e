"""The sampling error of an open-model p99 (METHOD.md: p99 sampling error). A p99 from n answers is the order statistic at rank
0.99 n; where the answers are independent, the rank of the true p99 lies within 0.99 n ± z √(0.99 · 0.01 · n) (the
binomial's normal approximation; distribution-free). Two configurations' p99s are told apart only where their
intervals do not overlap. The rows keep a few percentiles only (p90, p95 kept for this, p99, p99.9); an
interval's ends are read between the nearest two of them, linearly in log(1 - q), which is exact for an exponential
tail."""
import math

from slingvt_bench.core.rows import num

# Two intervals of equal width at z standard errors overlap exactly when a test of their difference at 5 % would not
# reject: 2 z = 1.96 √2 (Goldstein and Healy, 1995). Overlapping 95 % intervals would be a test at about 0.5 %.
Z = 1.39


def read(q, lower, upper):
    """The value at quantile q between the points lower = (q1, v1) and upper = (q2, v2), linear in log(1 - q)."""
    (q1, v1), (q2, v2) = lower, upper
    t = (math.log(1 - q) - math.log(1 - q1)) / (math.log(1 - q2) - math.log(1 - q1))
    return v1 + min(1.0, max(0.0, t)) * (v2 - v1)


def p99_interval(row):
    """(low, high) in ms around row's p99, or None without answers, p99, p99.9 and p95 or p90. The answers are oha's
    every status (the percentiles cover them all)."""
    n = (num(row.get("ok")) or 0) + (num(row.get("non2xx")) or 0)
    p99, p999 = num(row.get("p99_ms")), num(row.get("p999_ms"))
    below = next(((q, num(row.get(k))) for q, k in ((0.95, "p95_ms"), (0.90, "p90_ms")) if num(row.get(k)) is not None),
                 None)
    if not n or p99 is None or p999 is None or below is None:
        return None
    h = Z * math.sqrt(0.99 * 0.01 / n)
    return read(0.99 - h, below, (0.99, p99)), read(0.99 + h, (0.99, p99), (0.999, p999))


def overlap(a, b):
    """Whether the p99 intervals of rows a and b overlap; False where either has none (the verdict then stands)."""
    x, y = p99_interval(a), p99_interval(b)
    return bool(x and y) and x[0] <= y[1] and y[0] <= x[1]
