"""Open-model latency for ./sling-vt bench: requests at a fixed arrival rate (oha), corrected for coordinated omission.

wrk keeps C connections busy (a closed model): when the server slows down, wrk sends less, and its percentiles leave
out the requests it did not send. Here requests are due at a fixed rate whatever the server does; oha's
--latency-correction measures each from the moment it was due, so the time a request waited for a free connection
counts. Every configuration gets the same offered rates: 50 % and 90 % of the reference configuration's capacity
(kernel-200's best steady throughput on that workload in the closed-model points of the same run), so that a row's
latency compares configurations under the same load; each row also shows the configuration's own capacity.
"""

import json
import os
import shutil
import subprocess

from slingvt_bench.core.setups import OHA_VERSION



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


def target(urls, urls_file):
    """oha's arguments for what it requests: the URL, or for the kinds of a mixed workload the file urls_file that
    lists them (written here), from which oha takes one at random per request."""
    if len(urls) == 1:
        return [urls[0]]
    with open(urls_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    return ["--urls-from-file", urls_file]


def command(oha, url, rate, conns, duration_s):
    """The oha command line of one fixed-rate run; its JSON summary goes to stdout. url: a URL or target()'s
    arguments."""
    return [oha, "--no-tui", "--output-format", "json", "--latency-correction", "-q", f"{rate:.1f}",
            "-c", str(conns), "-z", f"{duration_s}s", "-t", "60s"] + ([url] if isinstance(url, str) else url)


def summary(out_json):
    """oha's JSON summary of one run."""
    try:
        with open(out_json) as f:
            return json.load(f)
    except (OSError, ValueError):
        raise OpenLoadError(f"oha wrote no JSON summary to {out_json}; see {out_json.replace('.json', '.err')}")
