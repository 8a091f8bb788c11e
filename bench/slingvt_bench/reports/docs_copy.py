"""`--docs DIR`: a run's summary into docs/benchmarks/NAME, the only supported way a run enters the repository. The
summary is what a reader opens: README.md, results.md, the summary CSVs, meta.json and the plots; raw per-point files
(wrk and oha output, *.err, logs, the per-second series, instance homes) stay in the run's output folder."""
import os
import shutil

from slingvt_bench.core.common import BenchError

# The files of a run that are its summary; the plots are every *.svg at the top of the run's folder.
SUMMARY = ("README.md", "results.md", "results.csv", "openmodel.csv", "overload.csv", "latency.md", "meta.json")


def summary_files(run):
    """The names of the summary files the run in `run` has, in a stable order."""
    names = [n for n in SUMMARY if os.path.isfile(os.path.join(run, n))]
    return names + sorted(n for n in os.listdir(run) if n.endswith(".svg") and os.path.isfile(os.path.join(run, n)))


def copy(run, root, name=None):
    """Copies the summary of the run in `run` into root/docs/benchmarks/<name or run's folder name> and returns that
    folder. Refuses a run without results.csv and a folder that already holds other files (an earlier run of the
    same name), so nothing raw is left beside the summary."""
    if not os.path.isfile(os.path.join(run, "results.csv")):
        raise BenchError(f"--docs {run}: no results.csv there (the output folder of a finished run)")
    name = name or os.path.basename(os.path.normpath(os.path.abspath(run)))
    if not name or os.sep in name or name.startswith("."):
        raise BenchError(f"--docs-name {name!r}: one folder name under docs/benchmarks")
    dest = os.path.join(root, "docs", "benchmarks", name)
    files = summary_files(run)
    if os.path.isdir(dest) and set(os.listdir(dest)) - set(files):
        raise BenchError(f"{dest} holds files that are not this run's summary; pick another --docs-name")
    os.makedirs(dest, exist_ok=True)
    for n in files:
        shutil.copy2(os.path.join(run, n), os.path.join(dest, n))
    return dest
