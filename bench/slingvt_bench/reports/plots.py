"""The report's plots, drawn with matplotlib: throughput, OS threads and RSS against concurrency, one line per
configuration, min-max error bars where a point was measured in several rounds, and the C/R bound dashed; and the
open-model latency per workload (p50 to p99 of each configuration at the same offered rates: 50 % and 90 % of the
reference configuration's capacity, kernel-200's unless it had none; runs before issue #30: of its own capacity).

matplotlib comes from the virtual environment ./sling-vt creates (.sling-vt/venv, bench/requirements.txt); it is
imported only here, so the tables of a report need nothing beyond the standard library.
"""
import os

from slingvt_bench.core.common import BenchError
from slingvt_bench.core.rows import num, round_of

COLORS = {"kernel-200": "#d62728", "kernel-1000": "#ff7f0e", "felix-virtual": "#2ca02c",
          "vt-unbounded": "#1f77b4", "vt-unbounded-twin": "#7f7f7f", "vt-no-detector": "#17becf", "vt-bounded": "#9467bd",
          "vt-adaptive-twin": "#f7b6d2",
          "vt-cap-100": "#8c564b", "vt-adaptive": "#e377c2", "vt-adaptive-queue": "#bcbd22"}
ALPHAS = (0.4, 0.95)  # open-model loads, lighter for the lower rate
PLOT_SKIP = {"park10s"}  # a single concurrency: a table row, not a plot
CHARTS = (("thr", "requests/s (steady state)", "throughput", "Throughput vs concurrency"),
          ("threads_max", "live OS threads (peak)", "threads", "Server OS threads vs concurrency"),
          ("rss_max_mib", "RSS (MiB, peak)", "rss", "Server RSS vs concurrency"))


def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise BenchError("the plots need matplotlib: run through ./sling-vt bench (it installs bench/requirements.txt "
                         "into .sling-vt/venv), or pip install -r bench/requirements.txt")
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def spread(d, config, workload, c, field):
    """(median, below, above) of a point over its rounds; below/above are 0 with a single round."""
    values = [num(r.get(field)) for r in d.rounds.get((config, workload, c), [])]
    values = [v for v in values if v is not None]
    mid = num(d.get(config, workload, c, field))
    if mid is None or len(values) < 2:
        return mid, 0.0, 0.0
    return mid, mid - min(values), max(values) - mid


def write_plots(out, d, meta):
    """{throughput,threads,rss}-<workload>.svg in out, for every workload measured at several concurrencies."""
    plt = pyplot()
    for w in [w for w in d.workloads if w not in PLOT_SKIP]:
        label = meta.get("workloads", {}).get(w, {}).get("desc", w).split(":")[0]
        xs = list(range(len(d.conc)))  # concurrency levels evenly spaced, as categories
        for field, ylabel, fname, title in CHARTS:
            fig, ax = plt.subplots(figsize=(6.4, 4.0))
            for cf in d.configs:
                pts = [(x, *spread(d, cf, w, c, field)) for x, c in zip(xs, d.conc)]
                pts = [p for p in pts if p[1] is not None]
                if not pts:
                    continue
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[[p[2] for p in pts], [p[3] for p in pts]],
                            label=cf, color=COLORS.get(cf), marker="o", markersize=4, capsize=3, linewidth=1.5)
            if field == "thr":
                bound = [num(next((d.get(cf, w, c, "little_bound_rps") for cf in d.configs
                                   if d.get(cf, w, c, "little_bound_rps")), None)) for c in d.conc]
                shown = [(x, b) for x, b in zip(xs, bound) if b is not None]
                top = ax.get_ylim()[1]
                if shown:
                    # The bound can be far above the data (R = 10 ms at C = 8,000): clipped, so the data stays legible.
                    clipped = any(b > top * 1.05 for _, b in shown)
                    ax.plot([x for x, _ in shown], [min(b, top * 1.05) for _, b in shown], linestyle="--",
                            color="#999999", label="C/R bound" + (" (clipped)" if clipped else ""))
            ax.set_xticks(xs, [f"{c:,}" for c in d.conc])
            ax.set_xlabel("concurrency (connections)")
            ax.set_ylabel(ylabel)
            ax.set_ylim(bottom=0)
            ax.set_title(f"{title}, {label}", fontsize=10)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
            fig.tight_layout()
            fig.savefig(os.path.join(out, f"{fname}-{w}.svg"), metadata={"Date": None})
            plt.close(fig)


def latency_plots(out, rows):
    """latency-<workload>.svg for the open-model rows (openload.FIELDS): per configuration and load, a bar from p50
    to p99 with p99.9 marked, on a log scale (the configurations differ by orders of magnitude under load).
    Returns the workloads drawn."""
    if not rows:
        return []
    plt = pyplot()
    from matplotlib.patches import Patch
    drawn = []
    for w in dict.fromkeys(r["workload"] for r in rows):
        mine = [r for r in rows if r["workload"] == w and num(r.get("p50_ms")) and num(r.get("p99_ms"))]
        if not mine:
            continue
        configs = list(dict.fromkeys(r["config"] for r in mine))
        fractions = sorted({float(r["fraction"]) for r in mine})
        ref = next((r.get("reference") for r in mine if r.get("reference")), None)
        basis = {fr: (f"{next(r['target_rps'] for r in mine if float(r['fraction']) == fr)}/s = "
                      f"{int(round(fr * 100))} % of {ref}'s capacity" if ref else
                      f"{int(round(fr * 100))} % of own capacity") for fr in fractions}
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        width = 0.8 / len(fractions)
        for i, fr in enumerate(fractions):
            for x, cf in enumerate(configs):
                r = next((r for r in mine if r["config"] == cf and float(r["fraction"]) == fr), None)
                if r is None:
                    continue
                p50, p99, p999 = num(r["p50_ms"]), num(r["p99_ms"]), num(r.get("p999_ms"))
                pos = x - 0.4 + width * (i + 0.5)
                ax.bar(pos, p99 - p50, bottom=p50, width=width * 0.9, color=COLORS.get(cf, "#333333"),
                       alpha=ALPHAS[i % len(ALPHAS)])
                if p999:
                    ax.plot([pos], [p999], marker="_", markersize=10, color="#000000")
        ax.set_yscale("log")
        # Bars on a log axis start at p50, not at 0: the axis must span all of them explicitly.
        low = min(num(r["p50_ms"]) for r in mine)
        high = max(num(r.get("p999_ms")) or num(r["p99_ms"]) for r in mine)
        ax.set_ylim(max(0.1, low / 1.5), high * 1.5)
        ax.set_xticks(range(len(configs)), configs, rotation=20, fontsize=7)
        ax.set_ylabel("latency (ms, log): bar p50..p99, dash p99.9")
        ax.set_title(f"Latency at fixed arrival rates (oha, open model), {w}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        # Legend entries for the two loads only (the colours are the configurations, named on the axis).
        ax.legend(handles=[Patch(color="#555555", alpha=ALPHAS[i % len(ALPHAS)],
                                 label=basis[fr]) for i, fr in enumerate(fractions)],
                  fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"latency-{w}.svg"), metadata={"Date": None})
        plt.close(fig)
        drawn.append(w)
    return drawn


# Rounds of one overload point (--overload-rounds): the configuration's colour, one line style per round.
ROUND_STYLES = ("-", "--", ":", "-.")


def overload_plots(out, series, rows):
    """overload-<workload>-<percent>.svg from overload-series.csv (overload_open.SERIES_FIELDS): 2xx answered in
    time per second over the run, one line per configuration (and round), the offered rate dashed grey. Returns the
    files drawn."""
    if not series:
        return []
    plt = pyplot()
    drawn = []
    for w, fr in dict.fromkeys((s["workload"], float(s["fraction"])) for s in series):
        mine = [s for s in series if s["workload"] == w and float(s["fraction"]) == fr]
        rate = next((num(r["target_rps"]) for r in rows if r["workload"] == w and float(r["fraction"]) == fr), None)
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        several = any(round_of(s) > 1 for s in mine)
        for cf, rnd in dict.fromkeys((s["config"], round_of(s)) for s in mine):
            pts = sorted((int(s["second"]), int(s["ok_in_time"])) for s in mine
                         if s["config"] == cf and round_of(s) == rnd)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=f"{cf} round {rnd}" if several else cf,
                    color=COLORS.get(cf), linewidth=1.3, linestyle=ROUND_STYLES[(rnd - 1) % len(ROUND_STYLES)])
        if rate:
            ax.axhline(rate, linestyle="--", color="#999999", label=f"offered {rate:,.0f}/s")
        ax.set_xlabel("second of the run (by completion)")
        ax.set_ylabel("2xx answered within the timeout per second")
        ax.set_ylim(bottom=0)
        ax.set_title(f"Open-model overload, {w} at {round(fr * 100)} % of the reference capacity", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        fig.tight_layout()
        name = f"overload-{w}-{round(fr * 100)}.svg"
        fig.savefig(os.path.join(out, name), metadata={"Date": None})
        plt.close(fig)
        drawn.append(name)
    return drawn
