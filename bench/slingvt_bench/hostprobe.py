"""The host's cross-core hand-over latency (bench/hostprobe.c), measured before and after each closed point while
the instances are idle. On a virtual machine it moves between states with where the hypervisor runs the virtual
CPUs, and the CPU every contended atomic update costs moves with it: repo200 cost 2.3 ms per answer at about 45 ns
and 4.0 ms at about 200 ns in the same JVM (docs/benchmarks/repo200-host-state-2026-11-28). The figure lets a
comparison of two configurations show whether both were measured in the same state of the host."""
import os
import re
import shutil
import subprocess

from .common import log

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(BENCH_DIR, "hostprobe.c")
HAND_OVERS = 300_000
RUNS = 3
# Two probes of one point further apart than this factor: the host changed state during the point.
STATE_CHANGE = 2.0
# The most the host's state moved a configuration's throughput on this machine: repo200's CPU per answer, 4.0 ms at
# about 200 ns against 2.3 ms at about 45 ns in one JVM (docs/benchmarks/repo200-host-state-2026-11-28). A ratio of
# two configurations measured in different states decides nothing within this factor of its goal.
STATE_EFFECT = 1.75


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


def changed(before, after):
    """True where the two probes of one point are further apart than STATE_CHANGE (either way)."""
    try:
        a, b = float(before), float(after)
    except (TypeError, ValueError):
        return False
    return a > 0 and b > 0 and max(a, b) / min(a, b) > STATE_CHANGE


def probes(row):
    """The probes of a row (before and after its point) in ns; empty for a row measured without the probe."""
    out = []
    for key in ("handover_ns", "handover_ns_after"):
        try:
            v = float(row.get(key))
        except (TypeError, ValueError):
            continue
        if v > 0:
            out.append(v)
    return out


def same_state(*rows):
    """Whether the rows were measured in one state of the host: True where all their probes are within STATE_CHANGE
    of each other, False where two are further apart, None where a row has no probe (nothing is known)."""
    values = []
    for row in rows:
        p = probes(row)
        if not p:
            return None
        values += p
    return max(values) / min(values) <= STATE_CHANGE


def in_state(probe, row):
    """Whether every probe of row lies within STATE_CHANGE of probe (in ns): the row was measured in its state."""
    p = probes(row)
    return bool(p) and probe > 0 and all(max(probe, q) / min(probe, q) <= STATE_CHANGE for q in p)


def host_explains(measured, goal):
    """Whether a ratio measured across two host states is within STATE_EFFECT of its goal: the host alone could have
    put it on either side, so it decides nothing (METHOD.md: one host state)."""
    return measured is not None and goal / STATE_EFFECT <= measured <= goal * STATE_EFFECT


def decisive_gap(measured, goal, two_states, explained=None):
    """(distance from the goal that orders the decisive rounds, whether the host explains the ratio) for a ratio whose
    rounds were all measured in two host states (two_states) or not. Such a ratio decides nothing, so it may always get
    rounds; where it falls short of its goal it goes first (a loss only a round in one state can confirm or clear),
    where it is ahead it keeps its place by its distance. Ties at the front otherwise used up the budget in grid order
    with the host changing state about once a minute (full-2026-11-29: R10ms C=8,000 at 1.45x got rounds, repo200
    C=4,000 at 0.69x and R100ms C=100 0.4 % behind did not)."""
    host = bool(two_states) and (host_explains(measured, goal) if explained is None else explained)
    return (0.0 if host and measured < goal else abs(measured / goal - 1)), host


def in_one_state(pairs):
    """(the values used, whether any were left out) of [(value, same host state)]: where the probe saw a round in one
    state, only such rounds; else all (no probe, or every round in two states: only_two_states)."""
    same = [x for x, s in pairs if s]
    if same and len(same) < len(pairs):
        return same, True
    return [x for x, _ in pairs], False


def only_two_states(states):
    """True when the probe saw every one of these rounds (same_state of each pair) in two host states."""
    return False in states and True not in states


def cell(before, after):
    """'45 / 47', '45 / 201 *' where the host changed state during the point, '-' without a probe."""
    if before in (None, "") and after in (None, ""):
        return "-"
    shown = " / ".join(f"{float(v):.0f}" if v not in (None, "") else "?" for v in (before, after))
    return shown + (" *" if changed(before, after) else "")


def section(d):
    """results.md: the probes of each closed point's median round; nothing for a run without them."""
    if not any(r.get("handover_ns") for r in d.rows):
        return []
    L = ["## The host's state at each point\n",
         "ns per cross-core hand-over (bench/hostprobe.c), measured while every instance was idle, before / after "
         "the median round of each point; `*` where the two are more than "
         f"{STATE_CHANGE:.0f}x apart (the host changed state during the point). On the 2-core lab machine the CPU per "
         "answer of repository-heavy work follows it (repo200: 2.3 ms at about 45 ns, 4.0 ms at about 200 ns in the "
         "same JVM, docs/benchmarks/repo200-host-state-2026-11-28): two configurations' throughputs compare the "
         "product only where their probes agree.\n",
         "| workload | C | " + " | ".join(d.configs) + " |", "|---|---:|" + "---:|" * len(d.configs)]
    for w, c in d.points():
        cells = [cell(d.get(cf, w, c, "handover_ns"), d.get(cf, w, c, "handover_ns_after")) for cf in d.configs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    return L
