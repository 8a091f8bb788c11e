"""The README's run of record, written from the run's own files (./sling-vt bench --readme DIR): one small table of
the default's ratios against the better kernel pool and unbounded (closed model, C = 1,000 and 8,000) and against
kernel-200 at overload (200 %), and the OS threads. It goes between two markers in README.md; the text around them
(the link to docs/PERFORMANCE.md with every table) is the README's own, so that a new run of record changes its
figures and nothing else."""
import json
import os

from slingvt_bench.core import overload_rows
from slingvt_bench.core.common import BenchError
from slingvt_bench.core.rows import KERNEL, VIRTUAL, fmt_ratio, num, read_csv
from slingvt_bench.core.setups import AA, DEFAULT_VIRTUAL, KEPT_GOAL, KEPT_WINS, REFERENCE
from slingvt_bench.verdicts.judge import aa_spread, better_kernel, host_undecided, verdict
from slingvt_bench.verdicts.overload_rounds import median_pair
from slingvt_bench.verdicts.ratios import Data
from slingvt_bench.verdicts.safe_default import UNBOUNDED, applies

BEGIN = "<!-- run of record: written by ./sling-vt bench --readme DIR; edit the text around it, not in it -->"
END = "<!-- end of the run of record -->"
# The README's two closed-model concurrencies: where a pool's 200 threads are long taken, and far beyond.
README_CONCURRENCY = (1000, 8000)
# The README's overload: twice kernel-200's capacity.
README_OVERLOAD = 2.0


def marked(d, a, b, w, c, goal):
    """a : b at this point as the README shows it: `?` within the twins' spread of its goal or measured in two host
    states only (verdicts.host_undecided), bold when lost beyond it."""
    r = d.ratio(a, b, w, c) if (a, w, c) in d.by and (b, w, c) in d.by else None
    if r is None:
        return "–"
    if host_undecided(d, a, b, w, c, r, goal):
        return fmt_ratio(r) + "?"
    v = verdict(r, goal, aa_spread(d, w, c))
    return fmt_ratio(r) + "?" if v.startswith("undecided") else f"**{fmt_ratio(r)}**" if v == "MISSED" \
        else fmt_ratio(r)


def threads_line(d):
    """The most live OS threads any virtual configuration had at a closed point, against the kernel pools'."""
    def most(configs):
        return max((num(r.get("threads_max")) or 0 for r in d.rows if r["config"] in configs and not r.get("failed")),
                   default=0)
    v, k = most(VIRTUAL), most(KERNEL)
    return [f"Live OS threads under load: {v:,.0f} at most in virtual mode, {k:,.0f} in kernel mode."] if v else []


def short_table(d, over):
    """One row per workload: `auto` : the better kernel pool and : unbounded at README_CONCURRENCY (marked as in
    closed_table), and `auto` : kernel-200's answers in time at README_OVERLOAD (median of the paired rounds)."""
    cs = " / ".join(f"{c:,}" for c in README_CONCURRENCY)
    L = [f"| workload | `auto` : kernel pool, C = {cs} | `auto` : unbounded, C = {cs} | "
         f"overload {round(README_OVERLOAD * 100)} %: `auto` : kernel-200 |", "|---|---:|---:|---:|"]
    for w in dict.fromkeys(w for w, _ in d.points()):
        kernel = " / ".join(marked(d, DEFAULT_VIRTUAL, better_kernel(d, w, c), w, c, 1.0)
                            if better_kernel(d, w, c) else "–" for c in README_CONCURRENCY)
        unbounded = " / ".join(marked(d, DEFAULT_VIRTUAL, UNBOUNDED, w, c,
                                      KEPT_GOAL if w in KEPT_WINS and c >= 1000 else 1.0) for c in README_CONCURRENCY)
        pair = median_pair(over, DEFAULT_VIRTUAL, REFERENCE, w, README_OVERLOAD, "ok_per_s") if over else None
        L.append(f"| {w} | {kernel} | {unbounded} | {fmt_ratio(pair[0]) if pair else '–'} |")
    return L


def summary(out, root):
    """The Markdown between the markers for the run in out (root: the repository, kept for callers)."""
    d = Data(read_csv(os.path.join(out, "results.csv")))
    if not applies(d):
        raise BenchError(f"{out}: the run did not measure {AA[0]} with its twin {AA[1]}; no targets to show")
    with open(os.path.join(out, "meta.json")) as f:
        meta = json.load(f)
    over = overload_rows.read_csv(os.path.join(out, "overload.csv"))
    m = meta.get("machine", {})
    pinning = str(m.get("pinning", ""))
    where = f", {pinning}" if pinning.startswith("server confined") else " shared with the load generator"
    L = [f"Measured {str(m.get('date', '?'))[:10]} on {m.get('nproc', '?')} CPUs{where}, "
         "default settings. Answers per second of `auto` (the default) against the better kernel pool (200 or 1,000 "
         "threads) and against `unbounded`, closed model (`?` within the spread of two identical instances, **bold** "
         f"behind beyond it); answers in time at an arrival rate of {round(README_OVERLOAD * 100)} % of kernel-200's "
         "capacity:", ""]
    L += short_table(d, over)
    for line in threads_line(d):
        L += ["", line]
    return "\n".join(L) + "\n"


def write_readme(out, readme):
    """Replaces what lies between BEGIN and END in readme with summary(out)."""
    with open(readme) as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise BenchError(f"{readme}: put the lines '{BEGIN}' and '{END}' (once each, in this order) where the run "
                         "of record goes")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    with open(readme, "w") as f:
        f.write(head + BEGIN + "\n" + summary(out, os.path.dirname(os.path.abspath(readme))) + END + tail)
