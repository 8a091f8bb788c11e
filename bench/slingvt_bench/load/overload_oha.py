"""Open-model overload (issue #27): fixed arrival rates above kernel-200's capacity, counted apart per outcome.

Closed-loop points far above capacity are decided by the client's timeout, not by the server: they swing from run
to run. Here oha offers a fixed rate (130 % and 200 % of the reference configuration's closed-model capacity, the
same absolute rates for every configuration) for a minute, with a 10 s client timeout, and every request ends in
exactly one category: answered in time (2xx within the timeout, timed from when it was due), answered late (2xx after
it), 503, another status, client timeout, connection error, or cut off by the end of the run. The pure parts live
here: rates, oha's command line, the categories from oha's JSON and SQLite rows, the per-second series, the
accounting identities against the server's HTTP counters, and the CSV files.
"""
import math
import os
import sqlite3

from slingvt_bench.core import open_rows

# oha's error texts (oha 1.16.0, client.rs ClientError): the per-request -t timeout (and the 5 s connect timeout,
# which oha reports with the same word) and the requests still in flight when -z ends.
TIMEOUT_ERROR = "timeout"


def connections(rate, timeout_s, fd_limit):
    """Enough connections that the rate never waits for one while every answer takes up to the client timeout, at
    most openload.max_connections(fd_limit). An open model must offer its rate: with fewer connections than
    rate x timeout, a server that holds its excess until the clients give up makes the client send only as fast as
    it answers (8,000 connections at 3,635/s offered sent 1,957/s), and every request the client could not send in
    time counts as late (it is timed from when it was due). The report shows what was sent."""
    return int(min(open_rows.max_connections(fd_limit), max(64, math.ceil(rate * (timeout_s + 0.5)))))


def command(oha, url, rate, conns, duration_s, timeout_s, db_path):
    """oha at a fixed rate with latency correction, its JSON summary on stdout and every answered request in the
    SQLite file db_path (oha 1.16.0: --db-url takes a file path; it stores the requests that got an answer)."""
    return [oha, "--no-tui", "--output-format", "json", "--latency-correction", "-q", f"{rate:.1f}",
            "-c", str(conns), "-z", f"{duration_s}s", "-t", f"{timeout_s}s", "--db-url", db_path] \
        + ([url] if isinstance(url, str) else url)


def read_db(path):
    """(status, end s from the start of the run, duration s from when the request was due) of every answered
    request in oha's SQLite file, or None when there is no such file or table."""
    if not os.path.exists(path):
        return None
    try:
        with sqlite3.connect(path) as con:
            return con.execute("SELECT status, end, duration FROM oha ORDER BY end").fetchall()
    except sqlite3.Error:
        return None


def percentile(values, p):
    """Nearest-rank percentile of a sorted list (None when empty)."""
    if not values:
        return None
    return values[min(len(values) - 1, max(0, math.ceil(p / 100.0 * len(values)) - 1))]


def categories(summary, answers, timeout_s, duration_s):
    """Every request of one oha run in exactly one category. summary: oha's JSON; answers: read_db's rows (None:
    the JSON alone, where every 2xx counts as in time and the percentiles are oha's over all answers)."""
    codes = {int(k): v for k, v in (summary.get("statusCodeDistribution") or {}).items()}
    errors = summary.get("errorDistribution") or {}
    c = dict(s503=codes.get(503, 0), other_non2xx=sum(v for k, v in codes.items() if not 200 <= k < 300 and k != 503),
             timeouts=errors.get(TIMEOUT_ERROR, 0), cut_off=errors.get(open_rows.IN_FLIGHT_AT_END, 0),
             conn_errors=sum(v for k, v in errors.items() if k not in (TIMEOUT_ERROR, open_rows.IN_FLIGHT_AT_END)))
    ok_all = sum(v for k, v in codes.items() if 200 <= k < 300)
    if answers is None:
        pct = summary.get("latencyPercentiles") or {}
        c.update(ok_in_time=ok_all, ok_late=0, source="json",
                 p50_ms=round(pct["p50"] * 1000, 1) if isinstance(pct.get("p50"), (int, float)) else None,
                 p99_ms=round(pct["p99"] * 1000, 1) if isinstance(pct.get("p99"), (int, float)) else None)
    else:
        in_time = sorted(d for s, _, d in answers if 200 <= s < 300 and d <= timeout_s)
        c.update(ok_in_time=len(in_time), ok_late=ok_all - len(in_time), source="sqlite",
                 p50_ms=None if not in_time else round(percentile(in_time, 50) * 1000, 1),
                 p99_ms=None if not in_time else round(percentile(in_time, 99) * 1000, 1))
    c["sent"] = sum(codes.values()) + sum(errors.values())
    # Losses: every request the run did not answer in time, except those the end of the run cut off.
    c["losses"] = c["sent"] - c["ok_in_time"] - c["cut_off"]
    c["ok_per_s"] = round(c["ok_in_time"] / duration_s, 1) if duration_s else 0
    return c


def per_second(answers, timeout_s, duration_s):
    """[(second, 2xx in time, 503, other)] for every second of the run (by completion time), empty seconds as 0."""
    n = int(math.ceil(duration_s))
    buckets = [[0, 0, 0] for _ in range(n)]
    for status, end, dur in answers or []:
        sec = min(n - 1, max(0, int(end)))  # answers after -z end (oha waits for none on HTTP/1) go to the last
        if 200 <= status < 300:
            if dur <= timeout_s:
                buckets[sec][0] += 1
        elif status == 503:
            buckets[sec][1] += 1
        else:
            buckets[sec][2] += 1
    return [(s, *b) for s, b in enumerate(buckets)]


def accounting(before, after, own, cats, has_counters):
    """The server's HTTP counters across one point against the client. before/after: the status JSON (after: read
    once the instance is idle again); own: {"admitted": n, "rejected": m} of the benchmark's own requests in between
    (the drain probe and the status reads after `before`, the last one included). Returns the row fields:
    server_arrived = admitted + rejected + abandoned (net of own; abandoned: dropped unstarted because the client
    closed its connection while the request waited for admission); arrived_identity held when the client's answers
    ≤ it ≤ the client's sent count (the client cannot tell which of its timed-out, failed or cut-off requests reached
    the server); admitted_identity held when completed + inFlight + queued = admitted at the end."""
    if not has_counters or not before or not after:
        why = "no counters (Sling VT's handler is not in this server's path)" if not has_counters else \
            "counters unreadable"
        return dict(counters=why, arrived_identity="n/a", admitted_identity="n/a")
    delta = {k: int(after.get(k, 0)) - int(before.get(k, 0))
             for k in ("admitted", "rejected", "abandoned", "completed")}
    admitted = delta["admitted"] - own.get("admitted", 0)
    rejected = delta["rejected"] - own.get("rejected", 0)
    arrived = admitted + rejected + delta["abandoned"]
    answered = cats["ok_in_time"] + cats["ok_late"] + cats["s503"] + cats["other_non2xx"]
    end = int(after.get("completed", 0)) + int(after.get("inFlight", 0)) + int(after.get("queued", 0))
    return dict(counters="yes", admitted=admitted, rejected=rejected, abandoned=delta["abandoned"],
                completed=delta["completed"],
                in_flight=after.get("inFlight"), queued=after.get("queued"),
                own_requests=own.get("admitted", 0) + own.get("rejected", 0), server_arrived=arrived,
                client_answered=answered,
                arrived_identity="held" if answered <= arrived <= cats["sent"] else "broken",
                admitted_identity="held" if end == int(after.get("admitted", 0)) else "broken")
