"""results.md: every target of the default (auto), misses first."""
from slingvt_bench.core.setups import AA, DEFAULT_VIRTUAL, REFERENCE
from slingvt_bench.verdicts.safe_default import UNBOUNDED, applies, judged_targets


def section(out, d):
    """The results.md section with every target of the safe default, misses first, or "" for older runs."""
    if not applies(d):
        return ""
    missed, undecided, met, rest = judged_targets(out, d)
    L = ["## Targets of the default (`maxConcurrentRequests=auto`)\n",
         f"{DEFAULT_VIRTUAL} against the better kernel pool and {UNBOUNDED} in the closed model, against "
         f"{REFERENCE} in the open model and at overload. A ratio within the A/A spread of its goal ({AA[0]} : "
         f"{AA[1]}, two identical instances, largest difference over the rounds of that point) is undecided, never "
         f"met. {len(missed)} missed, {len(undecided)} undecided, {len(met)} met, {len(rest)} not applicable or "
         "not measured; misses first.\n",
         "| target | measured | verdict |", "|---|---|---|"]
    for t, m, vd in missed + undecided + met + rest:
        mark = "✅ met" if vd == "met" else "❌ " + vd if vd.startswith("MISSED") else vd
        L.append(f"| {t} | {m} | {mark} |")
    return "\n".join(L) + "\n\n"
