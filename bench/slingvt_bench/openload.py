"""Open-model latency for ./sling-vt bench: requests at a fixed arrival rate (oha), corrected for coordinated omission.

wrk keeps C connections busy (a closed model): when the server slows down, wrk sends less, and its percentiles leave
out the requests it did not send. Here requests are due at a fixed rate whatever the server does; oha's
--latency-correction measures each from the moment it was due, so the time a request waited for a free connection
counts. Every configuration gets the same offered rates: 50 % and 90 % of the reference configuration's capacity
(kernel-200's best steady throughput on that workload in the closed-model points of the same run), so that a row's
latency compares configurations under the same load; each row also shows the configuration's own capacity.
"""

import csv
import json
import math
import os
import shutil
import subprocess

from . import hostprobe, open_rounds
from .data import rate_point, round_of
from .plan import REFERENCE

OHA_VERSION = "1.16.0"
FRACTIONS = (0.5, 0.9)
DURATION_S = 20
# oha's name for the requests still in flight when the run ends: cut off by the run, not failed.
IN_FLIGHT_AT_END = "aborted due to deadline"
# The configuration whose capacity sets the offered rates of all; when it has none on a workload, the configuration
# with the lowest capacity there (every configuration is then driven at rates it reached in the closed model).
# capacity_rps: the reference's capacity the rate derives from; own_capacity_rps: the row's configuration's own;
# p95_ms (last, added later): one end of the p99's sampling interval (p99_sampling.p99_interval).
FIELDS = ["config", "workload", "fraction", "round", "reference", "capacity_rps", "target_rps", "own_capacity_rps",
          "achieved_rps", "connections", "duration_s", "ok", "non2xx", "errors", "p50_ms", "p90_ms", "p99_ms",
          "p999_ms", "max_ms", "failed", "handover_ns", "handover_ns_after", "p95_ms"]


class OpenLoadError(Exception):
    pass


def shared_tools(version=OHA_VERSION):
    """Where oha of this version is built once for every checkout of this user: the user's cache
    ($XDG_CACHE_HOME, else ~/.cache), so that the run of record from a fresh clone does not spend four minutes of
    its sitting compiling the same client again."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(cache, "sling-vt", f"oha-{version}")


def ensure_oha(root, log):
    """oha on PATH, in the user's cache (shared_tools) or in this checkout's .sling-vt/tools (where earlier versions of
    the benchmark built it); else built with cargo into the user's cache."""
    path = shutil.which("oha")
    if path:
        return path
    tools = shared_tools()
    local = os.path.join(tools, "bin", "oha")
    for built in (local, os.path.join(root, ".sling-vt", "tools", "bin", "oha")):
        if os.access(built, os.X_OK):
            return built
    cargo = shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
    if not os.access(cargo, os.X_OK):
        raise OpenLoadError(f"the open-model latency needs oha {OHA_VERSION}: install Rust's cargo (then the "
                            f"benchmark builds oha itself), put oha on PATH, or run with --no-open-model --no-overload")
    log(f"oha not found; building oha {OHA_VERSION} with cargo into {tools} (a few minutes, once)")
    p = subprocess.run([cargo, "install", "oha", "--version", OHA_VERSION, "--locked", "--root", tools],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800, check=False)
    if p.returncode != 0 or not os.access(local, os.X_OK):
        raise OpenLoadError(f"cargo install oha {OHA_VERSION} failed (exit {p.returncode}): {p.stdout[-1500:]}")
    return local


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


def command(oha, url, rate, conns, duration_s):
    """The oha command line of one fixed-rate run; its JSON summary goes to stdout."""
    return [oha, "--no-tui", "--output-format", "json", "--latency-correction", "-q", f"{rate:.1f}",
            "-c", str(conns), "-z", f"{duration_s}s", "-t", "60s", url]


def summary(out_json):
    """oha's JSON summary of one run."""
    try:
        with open(out_json) as f:
            return json.load(f)
    except (OSError, ValueError):
        raise OpenLoadError(f"oha wrote no JSON summary to {out_json}; see {out_json.replace('.json', '.err')}")


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


def section(out):
    """The results.md section for DIR/openmodel.csv, or "" when the run has none."""
    rows = read_csv(os.path.join(out, "openmodel.csv"))
    if not rows:
        return ""
    same = all(r.get("reference") for r in rows)
    basis = ("The offered rate is the same for every configuration of a workload: the load column's share of the "
             "reference configuration's capacity (its best steady throughput on that workload in this run; "
             f"{REFERENCE} unless it had none), so each row group compares the configurations under the same load. "
             "Own capacity = the configuration's own best steady throughput there (a rate above it overloads it). "
             if same else
             "**This run predates the shared rates**: the rate is the load column's share of each configuration's "
             "own capacity, so the rates differ between configurations and their latencies are not comparable "
             "row by row. ")
    durations = ", ".join(sorted({r["duration_s"] for r in rows if r.get("duration_s")}))
    order = {k: i for i, k in enumerate(dict.fromkeys(rate_point(r) for r in rows))}
    probed = any(r.get("handover_ns") for r in rows)
    L = ["\n## Latency at fixed arrival rates (open model)\n",
         f"oha {OHA_VERSION}, `--latency-correction` (each request timed from when it was due, so waiting for a "
         f"connection counts: no coordinated omission), {durations} s per "
         "rate, after the closed-model points. " + basis +
         "Achieved = successful answers per second. Errors leave out the requests still in flight when the run "
         "ended. Latencies in ms. A run that failed stays in the table with its reason."
         + (" " + open_rounds.rounds_note(rows).strip() if open_rounds.rounds_note(rows) else "")
         + (" Host ns: the host's cross-core hand-over before / after the run (`*`: it changed state during it); the "
            "p99 target compares rounds measured in one host state (decision 0032)." if probed else "") + "\n",
         "| workload | offered /s | load | config | own capacity /s | achieved /s | p50 | p90 | p99 | p99.9 | max | "
         "errors | non-2xx |" + (" host ns |" if probed else ""),
         "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if probed else "")]
    several = {rate_point(r) for r in rows if round_of(r) > 1}
    for r in sorted(rows, key=lambda r: (order[rate_point(r)], round_of(r))):
        load = (f"{round(float(r['fraction']) * 100)} % of {r.get('reference') or 'own'} {r['capacity_rps']}")
        config = r["config"] + (f" (round {round_of(r)})" if rate_point(r) in several else "")
        own = r.get("own_capacity_rps") or (r["capacity_rps"] if not r.get("reference") else "–")
        if r.get("failed"):
            L.append(f"| {r['workload']} | {r['target_rps']} | {load} | {config} | {own} | "
                     f"**failed**: {r['failed'].replace('|', '/')} |" + " – |" * (8 if probed else 7))
            continue
        L.append(f"| {r['workload']} | {r['target_rps']} | {load} | {config} | {own} | {r['achieved_rps']} | "
                 f"{r['p50_ms']} | {r['p90_ms']} | {r['p99_ms']} | {r['p999_ms']} | {r['max_ms']} | {r['errors']} | "
                 f"{r['non2xx']} |"
                 + (f" {hostprobe.cell(r.get('handover_ns'), r.get('handover_ns_after'))} |" if probed else ""))
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    L.append("\nPlots (bar p50 to p99, dash p99.9, log scale): "
             + ", ".join(f"[{w}](latency-{w}.svg)" for w in workloads) + ".")
    L.append("\nRaw numbers: [openmodel.csv](openmodel.csv); oha's JSON per rate in `wrk/oha-*.json`.\n")
    return "\n".join(L)
