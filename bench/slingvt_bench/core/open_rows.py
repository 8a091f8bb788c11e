"""The rows of the open model (openmodel.csv): capacities, offered rates, connections, one row per run."""
import csv
import math
import os

from slingvt_bench.core.setups import REFERENCE

# oha's name for the requests still in flight when the run ends: cut off by the run, not failed.
IN_FLIGHT_AT_END = "aborted due to deadline"


FRACTIONS = (0.5, 0.9)


DURATION_S = 20


# The configuration whose capacity sets the offered rates of all; when it has none on a workload, the configuration
# with the lowest capacity there (every configuration is then driven at rates it reached in the closed model).
# capacity_rps: the reference's capacity the rate derives from; own_capacity_rps: the row's configuration's own;
# p95_ms (last, added later): one end of the p99's sampling interval (p99_sampling.p99_interval).
FIELDS = ["config", "workload", "fraction", "round", "reference", "capacity_rps", "target_rps", "own_capacity_rps",
          "achieved_rps", "connections", "duration_s", "ok", "non2xx", "errors", "p50_ms", "p90_ms", "p99_ms",
          "p999_ms", "max_ms", "failed", "handover_ns", "handover_ns_after", "p95_ms"]


def capacity(rows, config, workload):
    """The best steady throughput (successful answers per second) of config on workload; where no point had a
    steady window (a short or overloaded run), the best whole-run rate; None without points."""
    found = capacity_row(rows, config, workload)
    return found[1] if found else None


def capacity_row(rows, config, workload):
    """(the row, its rate) of capacity(): the point the capacity was measured at; None without points."""
    mine = [r for r in rows if r["config"] == config and r["workload"] == workload]
    for key in ("rps_steady", "rps"):
        rated = [(float(r[key]), r) for r in mine if r.get(key) not in (None, "")]
        if rated:
            rate, row = max(rated, key=lambda t: t[0])
            if rate > 0:
                return row, rate
    return None


def offered_rates(rows, configs, workload, fractions):
    """(reference, its capacity, [(fraction, rate)]): the same absolute rates for every configuration of the workload,
    fractions of REFERENCE's capacity (else of the lowest capacity among configs); (None, None, []) without one."""
    caps = {cf: capacity(rows, cf, workload) for cf in configs}
    caps = {cf: v for cf, v in caps.items() if v}
    if not caps:
        return None, None, []
    ref = REFERENCE if REFERENCE in caps else min(caps, key=caps.get)
    return ref, caps[ref], [(fr, caps[ref] * fr) for fr in fractions]


# The share of the file-descriptor limit the client's connections may take. The server runs under the same limit and
# holds more sockets than the client: a connection the client closed stays open on the server until the server reads
# from or writes to it (a waiting request's watch, the answer of a running one). Measured at 200 % of kernel-200's
# capacity under a 20,000 limit: 16,000 client connections took the server to 20,000 descriptors; 12,000 took it to
# 18,900 (kernel-200, R100ms) and to 20,000 (vt-adaptive, page), where Jetty's acceptor failed with "Too many open
# files" and paused. 8,000 never did. Where rate x timeout is more, the client sends slower than the offered rate.
FD_SHARE = 0.4


def max_connections(fd_limit):
    """The most connections one open-model point opens under this file-descriptor limit."""
    return max(64, int(fd_limit * FD_SHARE))


def connections(rate, r_ms, fd_limit):
    """Enough connections that the rate never waits for one while answers take up to twice R plus 0.5 s, at most
    max_connections(fd_limit)."""
    return int(min(max_connections(fd_limit), max(64, math.ceil(rate * (2 * r_ms / 1000 + 0.5)))))


def failed_row(config, workload, fraction, reference, cap, rate, own_cap, reason):
    """An open-model run that did not happen or did not finish: in the table as failed, with the reason."""
    return dict(config=config, workload=workload, fraction=fraction, reference=reference, capacity_rps=round(cap, 1),
                target_rps=round(rate, 1), own_capacity_rps=round(own_cap, 1) if own_cap else "",
                failed=" ".join(str(reason).split()) or "failed")


def row(config, workload, fraction, cap, rate, conns, duration_s, summary, reference="", own_cap=None):
    """A results row from oha's summary (latencies in seconds there, in ms here). cap is the reference's capacity
    the rate derives from, own_cap the configuration's own."""
    codes = {int(k): v for k, v in (summary.get("statusCodeDistribution") or {}).items()}
    ok = sum(v for k, v in codes.items() if k < 400)
    pct = summary.get("latencyPercentiles") or {}

    def ms(key):
        v = pct.get(key)
        return round(v * 1000, 1) if isinstance(v, (int, float)) else None
    return dict(config=config, workload=workload, fraction=fraction, reference=reference, capacity_rps=round(cap, 1),
                target_rps=round(rate, 1), own_capacity_rps=round(own_cap, 1) if own_cap else "", achieved_rps=round(ok / duration_s, 1), connections=conns,
                duration_s=duration_s, ok=ok, non2xx=sum(v for k, v in codes.items() if k >= 400),
                errors=sum(v for k, v in (summary.get("errorDistribution") or {}).items() if k != IN_FLIGHT_AT_END),
                p50_ms=ms("p50"), p90_ms=ms("p90"), p95_ms=ms("p95"), p99_ms=ms("p99"), p999_ms=ms("p99.9"),
                max_ms=round((summary.get("summary") or {}).get("slowest", 0) * 1000, 1))


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
