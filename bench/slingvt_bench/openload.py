"""Open-model latency for ./sling-vt bench: requests at a fixed arrival rate (oha), corrected for coordinated omission.

wrk keeps C connections busy (a closed model): when the server slows down, wrk sends less, and its percentiles leave
out the requests it did not send. Here requests are due at a fixed rate whatever the server does; oha's
--latency-correction measures each from the moment it was due, so the time a request waited for a free connection
counts. Each configuration gets the rates 50 % and 90 % of its own capacity, the best steady throughput it reached
on that workload in the closed-model points of the same run.
"""

import csv
import json
import math
import os
import shutil
import subprocess

OHA_VERSION = "1.16.0"
FRACTIONS = (0.5, 0.9)
DURATION_S = 20
MAX_CONNECTIONS = 8000
# oha's name for the requests still in flight when the run ends: cut off by the run, not failed.
IN_FLIGHT_AT_END = "aborted due to deadline"
FIELDS = ["config", "workload", "fraction", "capacity_rps", "target_rps", "achieved_rps", "connections",
          "duration_s", "ok", "non2xx", "errors", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms"]


class OpenLoadError(Exception):
    pass


def ensure_oha(root, log):
    """oha on PATH, or in .sling-vt/tools (installed there with cargo on first use)."""
    path = shutil.which("oha")
    tools = os.path.join(root, ".sling-vt", "tools")
    local = os.path.join(tools, "bin", "oha")
    if path:
        return path
    if os.access(local, os.X_OK):
        return local
    cargo = shutil.which("cargo") or os.path.expanduser("~/.cargo/bin/cargo")
    if not os.access(cargo, os.X_OK):
        raise OpenLoadError(f"the open-model latency needs oha {OHA_VERSION}: install Rust's cargo (then the "
                            f"benchmark builds oha itself), put oha on PATH, or run with --no-open-model")
    log(f"oha not found; building oha {OHA_VERSION} with cargo into {tools} (a few minutes, once)")
    p = subprocess.run([cargo, "install", "oha", "--version", OHA_VERSION, "--locked", "--root", tools],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800, check=False)
    if p.returncode != 0 or not os.access(local, os.X_OK):
        raise OpenLoadError(f"cargo install oha {OHA_VERSION} failed (exit {p.returncode}): {p.stdout[-1500:]}")
    return local


def capacity(rows, config, workload):
    """The best steady throughput (successful answers per second) of config on workload; where no point had a
    steady window (a short or overloaded run), the best whole-run rate; None without points."""
    mine = [r for r in rows if r["config"] == config and r["workload"] == workload]
    for key in ("rps_steady", "rps"):
        rates = [float(r[key]) for r in mine if r.get(key) not in (None, "")]
        if rates and max(rates) > 0:
            return max(rates)
    return None


def connections(rate, r_ms):
    """Enough connections that the rate never waits for one while answers take up to twice R plus 0.5 s."""
    return int(min(MAX_CONNECTIONS, max(64, math.ceil(rate * (2 * r_ms / 1000 + 0.5)))))


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


def row(config, workload, fraction, cap, rate, conns, duration_s, summary):
    """A results row from oha's summary (latencies in seconds there, in ms here)."""
    codes = {int(k): v for k, v in (summary.get("statusCodeDistribution") or {}).items()}
    ok = sum(v for k, v in codes.items() if k < 400)
    pct = summary.get("latencyPercentiles") or {}

    def ms(key):
        v = pct.get(key)
        return round(v * 1000, 1) if isinstance(v, (int, float)) else None
    return dict(config=config, workload=workload, fraction=fraction, capacity_rps=round(cap, 1),
                target_rps=round(rate, 1), achieved_rps=round(ok / duration_s, 1), connections=conns,
                duration_s=duration_s, ok=ok, non2xx=sum(v for k, v in codes.items() if k >= 400),
                errors=sum(v for k, v in (summary.get("errorDistribution") or {}).items() if k != IN_FLIGHT_AT_END),
                p50_ms=ms("p50"), p90_ms=ms("p90"), p99_ms=ms("p99"), p999_ms=ms("p99.9"),
                max_ms=round((summary.get("summary") or {}).get("slowest", 0) * 1000, 1))


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
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
    L = ["\n## Latency at fixed arrival rates (open model)\n",
         f"oha {OHA_VERSION}, `--latency-correction` (each request timed from when it was due, so waiting for a "
         f"connection counts: no coordinated omission), {', '.join(sorted({r['duration_s'] for r in rows}))} s per "
         "rate, after the closed-model points. "
         "Rate = the load column's share of the configuration's own capacity (its best steady throughput on that "
         "workload in this run), so each configuration is compared with itself at the same load; the capacities "
         "differ. "
         "Achieved = successful answers per second. Errors leave out the requests still in flight when the run "
         "ended. Latencies in ms.\n",
         "| workload | load | config | capacity /s | rate /s | achieved /s | p50 | p90 | p99 | p99.9 | max | "
         "errors | non-2xx |",
         "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        L.append(f"| {r['workload']} | {round(float(r['fraction']) * 100)} % | {r['config']} | {r['capacity_rps']} | "
                 f"{r['target_rps']} | {r['achieved_rps']} | {r['p50_ms']} | {r['p90_ms']} | {r['p99_ms']} | "
                 f"{r['p999_ms']} | {r['max_ms']} | {r['errors']} | {r['non2xx']} |")
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    L.append("\nPlots (bar p50 to p99, dash p99.9, log scale): "
             + ", ".join(f"[{w}](latency-{w}.svg)" for w in workloads) + ".")
    L.append("\nRaw numbers: [openmodel.csv](openmodel.csv); oha's JSON per rate in `wrk/oha-*.json`.\n")
    return "\n".join(L)
