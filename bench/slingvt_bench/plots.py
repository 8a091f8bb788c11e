"""The report's plots, drawn with matplotlib: throughput, OS threads and RSS against concurrency, one line per
configuration, min-max error bars where a point was measured in several rounds, and the C/R bound dashed.

matplotlib comes from the virtual environment ./sling-vt creates (.sling-vt/venv, bench/requirements.txt); it is
imported only here, so the tables of a report need nothing beyond the standard library.
"""
import os

from .common import BenchError
from .data import num

COLORS = {"kernel-200": "#d62728", "kernel-1000": "#ff7f0e", "felix-virtual": "#2ca02c",
          "vt-unbounded": "#1f77b4", "vt-unbounded-twin": "#7f7f7f", "vt-no-detector": "#17becf", "vt-bounded": "#9467bd",
          "vt-cap-100": "#8c564b"}
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
