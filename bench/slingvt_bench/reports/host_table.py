"""results.md: the host's state at each point (hostprobe)."""
from slingvt_bench.verdicts.host_state import STATE_CHANGE, changed


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
         "same JVM, run repo200-host-state-2026-11-28 in the git history of docs/benchmarks): two configurations' throughputs compare the "
         "product only where their probes agree.\n",
         "| workload | C | " + " | ".join(d.configs) + " |", "|---|---:|" + "---:|" * len(d.configs)]
    for w, c in d.points():
        cells = [cell(d.get(cf, w, c, "handover_ns"), d.get(cf, w, c, "handover_ns_after")) for cf in d.configs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    return L
