"""The host's cross-core hand-over latency (bench/hostprobe.c), measured before and after each closed point while
the instances are idle. On a virtual machine it moves between states with where the hypervisor runs the virtual
CPUs, and the CPU every contended atomic update costs moves with it: repo200 cost 2.3 ms per answer at about 45 ns
and 4.0 ms at about 200 ns in the same JVM (run repo200-host-state-2026-11-28 in the git history of docs/benchmarks). The figure lets a
comparison of two configurations show whether both were measured in the same state of the host."""
import os
import re
import shutil
import subprocess

from slingvt_bench.core.common import log

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(BENCH_DIR, "hostprobe.c")
HAND_OVERS = 300_000
RUNS = 3


def cpus():
    """The two CPUs the probe hands over between: the first two this process may run on (a container's cpuset need
    not hold CPU 0 and 1); fewer than two where there is nothing to hand over."""
    return sorted(os.sched_getaffinity(0))[:2]


def build(root):
    """The probe compiled into .sling-vt/tools (again when the source is newer) and tried once; None, with the reason
    in the run's log, where there is no C compiler, fewer than two CPUs or the probe fails (results.csv then has
    empty probe columns and results.md no host table)."""
    if len(cpus()) < 2:
        log("hostprobe: one CPU, nothing to hand over; the host state is not measured")
        return None
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        log("hostprobe: no C compiler (cc); the host state is not measured")
        return None
    binary = os.path.join(root, ".sling-vt", "tools", "bin", "hostprobe")
    if os.access(binary, os.X_OK) and os.path.getmtime(binary) >= os.path.getmtime(SOURCE):
        return binary
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    p = subprocess.run([cc, "-O2", "-pthread", "-o", binary, SOURCE], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
    if p.returncode != 0:
        log(f"hostprobe: {cc} failed (exit {p.returncode}): {p.stdout[-500:]}; the host state is not measured")
        return None
    p = subprocess.run(command(binary, 1000), capture_output=True, text=True, timeout=30, check=False)
    if parse(p.stdout) is None:
        log(f"hostprobe: the probe failed (exit {p.returncode}): {p.stderr.strip()[-300:]}; "
            "the host state is not measured")
        return None
    return binary


def command(binary, hand_overs):
    return [binary, str(hand_overs)] + [str(c) for c in cpus()]


def parse(text):
    """ns per hand-over from the probe's line ("52.8 ns per hand-over (CPUs 0 and 1)"), or None."""
    m = re.search(r"([0-9]+(?:\.[0-9]+)?) ns per hand-over", text or "")
    return float(m.group(1)) if m else None


def measure(binary):
    """The best of RUNS probes in ns (the least disturbed by anything else running), or "" without a probe."""
    if not binary:
        return ""
    best = None
    for _ in range(RUNS):
        try:
            out = subprocess.run(command(binary, HAND_OVERS), capture_output=True, text=True, timeout=30).stdout
        except subprocess.TimeoutExpired:
            continue
        ns = parse(out)
        if ns is not None and (best is None or ns < best):
            best = ns
    return round(best, 1) if best is not None else ""
