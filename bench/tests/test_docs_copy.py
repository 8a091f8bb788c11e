"""--docs: only a run's summary enters docs/benchmarks, never its raw per-point files."""
import os
import tempfile
import unittest

from slingvt_bench.core.common import BenchError
from slingvt_bench.reports import docs_copy


def touch(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("x\n")


class DocsCopyTest(unittest.TestCase):

    def test_the_summary_is_copied_and_nothing_raw(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "out", "20261207-101500")
            for n in ("README.md", "results.md", "results.csv", "openmodel.csv", "overload.csv", "meta.json",
                      "throughput-R1s.svg", "overload-series.csv", "overload-admission.csv", "wrk/k-R1s-c100.json",
                      "wrk/k-R1s-c100.err", "instances/kernel-200/launcher/logs/error.log"):
                touch(os.path.join(run, n))
            dest = docs_copy.copy(run, tmp, "full-2026-12-07")
            self.assertEqual(dest, os.path.join(tmp, "docs", "benchmarks", "full-2026-12-07"))
            self.assertEqual(sorted(os.listdir(dest)), ["README.md", "meta.json", "openmodel.csv", "overload.csv",
                                                        "results.csv", "results.md", "throughput-R1s.svg"])

    def test_the_runs_in_the_repository_are_summaries_only(self):
        # what --docs copies, Markdown notes and plots; no per-second series, client output or instance logs
        root = os.path.join(os.path.dirname(__file__), "..", "..", "docs")
        raw = []
        for where, _, names in os.walk(os.path.join(root, "benchmarks")):
            if where != os.path.join(root, "benchmarks"):
                raw += [os.path.join(where, n) for n in names
                        if n not in docs_copy.SUMMARY and not n.endswith((".svg", ".md"))]
        for where, _, names in os.walk(root):
            raw += [os.path.join(where, n) for n in names if n.endswith((".log", ".err", ".jfr"))]
        self.assertEqual(raw, [])

    def test_a_folder_that_is_not_a_run_or_a_name_with_other_files_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(BenchError):
                docs_copy.copy(tmp, tmp, "x")
            run = os.path.join(tmp, "run")
            touch(os.path.join(run, "results.csv"))
            touch(os.path.join(tmp, "docs", "benchmarks", "run", "wrk.json"))
            with self.assertRaises(BenchError):
                docs_copy.copy(run, tmp)
