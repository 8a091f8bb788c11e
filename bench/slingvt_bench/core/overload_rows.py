"""The rows of the overload phase (overload.csv, overload-series.csv): rates, fields, medians."""
import csv
import os

from slingvt_bench.core import open_rows
from slingvt_bench.core.rows import median_rounds


FRACTIONS = (1.3, 2.0)


# Seconds of load per overload point: three client timeouts (TIMEOUT_S), so that a queue has filled and been cut for
# 20 s of the run; the admission settles in half-second intervals (docs/design/admission.md). 60 s until 0.2.0, when
# the plan had to fit one sitting of about two hours (bench/METHOD.md, "One sitting").
DURATION_S = 30


QUICK_DURATION_S = 20


TIMEOUT_S = 10


FIELDS = ["config", "workload", "fraction", "round", "reference", "capacity_rps", "target_rps", "own_capacity_rps",
          "connections", "duration_s", "timeout_s", "sent", "ok_in_time", "ok_late", "s503", "other_non2xx",
          "timeouts", "conn_errors", "cut_off", "losses", "ok_per_s", "p50_ms", "p99_ms", "source",
          "counters", "admitted", "rejected", "abandoned", "completed", "in_flight", "queued", "own_requests",
          "server_arrived",
          "client_answered", "arrived_identity", "admitted_identity", "cpu_pct", "cpu_ms_per_completed",
          "closed_cpu_ms_per_answer", "limit_min", "limit_max", "in_flight_median", "queued_max", "held_median",
          "watch_samples",
          "failed", "handover_ns", "handover_ns_after", "client_cpu_pct", "closed_client_cpu_pct"]


SERIES_FIELDS = ["config", "workload", "fraction", "round", "second", "ok_in_time", "s503", "other"]


def offered(rows, configs, workload, fractions=FRACTIONS):
    """(reference, its capacity, [(fraction, rate)]): the same absolute rates for every configuration, from the
    closed-model rows exactly as the open-model latency derives its rates (openload.offered_rates)."""
    return open_rows.offered_rates(rows, configs, workload, fractions)


def failed_row(config, workload, fraction, reference, cap, rate, own_cap, reason, rnd=1):
    return dict(config=config, workload=workload, fraction=fraction, round=rnd, reference=reference,
                capacity_rps=round(cap, 1), target_rps=round(rate, 1),
                own_capacity_rps=round(own_cap, 1) if own_cap else "", failed=" ".join(str(reason).split()) or "failed")


def median_rows(rows):
    """One row per (config, workload, fraction): the round with the median answers in time per second (the lower of
    the two middle ones for an even count); a failed round stands for the point, as a failed point is missed."""
    return median_rounds(rows, "ok_per_s")


def write_csv(path, rows, fields=FIELDS):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="", extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    os.replace(tmp, path)


read_csv = open_rows.read_csv
