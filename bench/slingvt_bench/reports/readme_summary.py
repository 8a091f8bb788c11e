"""The README's run of record, written from the run's own files (./sling-vt bench --readme DIR): the targets of the
default with the losses first, the closed model's answers per second against the better kernel pool and unbounded,
and the overload's answers in time. It goes between two markers in README.md; the text around them is the README's
own, so that a new run of record changes its figures and nothing else."""
import json
import os

from slingvt_bench.core import overload_rows
from slingvt_bench.core.common import BenchError
from slingvt_bench.core.estimate import sittings
from slingvt_bench.core.rows import KERNEL, VIRTUAL, WHOLE_RUN_MARK, fmt_ratio, num, read_csv
from slingvt_bench.core.setups import AA, DEFAULT_VIRTUAL, KEPT_GOAL, KEPT_WINS, REFERENCE
from slingvt_bench.verdicts.judge import aa_spread, better_kernel, host_undecided, verdict
from slingvt_bench.verdicts.overload import index
from slingvt_bench.verdicts.ratios import Data
from slingvt_bench.verdicts.safe_default import UNBOUNDED, applies, judged_targets

BEGIN = "<!-- run of record: written by ./sling-vt bench --readme DIR; edit the text around it, not in it -->"
END = "<!-- end of the run of record -->"
SHORT = {"kernel-200": "k200", "kernel-1000": "k1000"}


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


def thr(d, config, w, c):
    t = num(d.get(config, w, c, "thr"))
    if t is None:
        return "–"
    return f"{t:,.0f}" + (f" {WHOLE_RUN_MARK}" if d.get(config, w, c, "thr_note") else "")


def closed_table(d):
    """Answers/s per point: the better kernel pool, unbounded, the default and its twin, and the default's ratios
    (median of the rounds' ratios) marked against their goals (0.97 against unbounded where its wins are kept)."""
    L = ["| workload | C | better kernel | unbounded | auto / twin | auto : kernel | auto : unbounded |",
         "|---|---:|---:|---:|---:|---:|---:|"]
    for w, c in d.points():
        b = better_kernel(d, w, c)
        if b is None:
            continue
        goal_u = KEPT_GOAL if w in KEPT_WINS and c >= 1000 else 1.0
        L.append(f"| {w} | {c:,} | {thr(d, b, w, c)} ({SHORT.get(b, b)}) | {thr(d, UNBOUNDED, w, c)} | "
                 f"{thr(d, AA[0], w, c)} / {thr(d, AA[1], w, c)} | "
                 f"{marked(d, DEFAULT_VIRTUAL, b, w, c, 1.0)} | "
                 f"{marked(d, DEFAULT_VIRTUAL, UNBOUNDED, w, c, goal_u)} |")
    return L


def overload_line(over):
    by = index(over)
    parts = []
    for w in dict.fromkeys(w for _, w, _ in by):
        pairs = []
        for fr in overload_rows.FRACTIONS:
            a, k = by.get((DEFAULT_VIRTUAL, w, fr)), by.get((REFERENCE, w, fr))
            if a and k:
                pairs.append(" / ".join("failed" if r.get("failed") else f"{num(r['ok_per_s']) or 0:,.0f}"
                                        for r in (a, k)))
        if pairs:
            parts.append(f"{w} " + " and ".join(pairs))
    if not parts:
        return []
    return ["Overload, answers in time per second (`auto` / kernel-200, median rounds) at "
            + " and ".join(f"{round(fr * 100)} %" for fr in overload_rows.FRACTIONS)
            + f" of kernel-200's capacity: {'; '.join(parts)}."]


def threads_line(d):
    """The most live OS threads any virtual configuration had at a closed point, against the kernel pools'."""
    def most(configs):
        return max((num(r.get("threads_max")) or 0 for r in d.rows if r["config"] in configs and not r.get("failed")),
                   default=0)
    v, k = most(VIRTUAL), most(KERNEL)
    return [f"Live OS threads under load: {v:,.0f} at most in virtual mode, {k:,.0f} in kernel mode."] if v else []


def summary(out, root):
    """The Markdown between the markers for the run in out; links relative to root (the repository)."""
    d = Data(read_csv(os.path.join(out, "results.csv")))
    if not applies(d):
        raise BenchError(f"{out}: the run did not measure {AA[0]} with its twin {AA[1]}; no targets to show")
    with open(os.path.join(out, "meta.json")) as f:
        meta = json.load(f)
    rel = os.path.relpath(os.path.abspath(out), os.path.abspath(root))
    name = os.path.basename(os.path.normpath(out))
    missed, undecided, met, _ = judged_targets(out, d)
    over = overload_rows.read_csv(os.path.join(out, "overload.csv"))
    m = meta.get("machine", {})
    L = [f"Run of record: [{name}]({rel}/README.md), {str(m.get('date', '?'))[:10]}, {m.get('nproc', '?')} CPUs "
         f"shared with the load generator, {sittings(meta)}, default settings: the default (`auto`) against the "
         f"better kernel pool and unbounded; its A/A twin sets the spread (`?` within it, **bold** beyond it). "
         f"**{len(missed)} missed**, {len(undecided)} undecided, {len(met)} met "
         f"([every target, losses first]({rel}/results.md)).", ""]
    L += ["Answers/s (steady, median round), `auto` : the better pool and : unbounded (median of the rounds' ratios):",
          ""] + closed_table(d)
    L += ["", f"{WHOLE_RUN_MARK} no steady window; the whole-run rate."]
    for line in overload_line(over) + threads_line(d):
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
