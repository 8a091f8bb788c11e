"""The README's run of record written from a run's files: the counts and losses of its targets, judged by the
benchmark's rules of today, the closed model's table, and only the text between the markers replaced."""
import os
import shutil
import tempfile
import unittest

from slingvt_bench.core import estimate
from slingvt_bench.core.common import BenchError
from slingvt_bench.reports import readme_summary

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
RUN = os.path.join(ROOT, "docs", "benchmarks", "full-2026-12-06b")


class ReadmeSummaryTest(unittest.TestCase):

    def test_one_small_table_marks_each_ratio_against_its_goal(self):
        text = readme_summary.summary(RUN, ROOT)
        self.assertIn("| R10ms | 1.94× / 1.40× | **0.96×** / 1.08×? | 1.54× |", text)
        self.assertIn("| R1s | 1.00×? / 1.58× | 1.00×? / 1.14× | 2.01× |", text)
        self.assertIn("| repo200 | 1.12× / 1.12× | **0.90×** / 1.37× | 1.06× |", text)
        self.assertIn("Live OS threads under load: 61 at most in virtual mode, 1,060 in kernel mode.", text)
        self.assertNotIn("docs/benchmarks/", text, "the README names no run: PERFORMANCE.md links it")
        self.assertLess(len(text.splitlines()), 15, "one small table: every table is in PERFORMANCE.md")

    def test_a_confined_run_says_where_the_server_ran(self):
        text = readme_summary.summary(os.path.join(ROOT, "docs", "benchmarks", "full-confined-2026-12-07b"), ROOT)
        self.assertTrue(text.startswith("Measured 2026-12-07 on 2 CPUs, server confined to CPU [0] (cgroup cpuset), "
                                        "load generator on CPU [1], default settings."), text[:200])
        self.assertIn("shared with the load generator", readme_summary.summary(RUN, ROOT))

    def test_only_the_text_between_the_markers_changes(self):
        with tempfile.TemporaryDirectory() as root:
            run = os.path.join(root, "docs", "benchmarks", "full-2026-12-06b")
            shutil.copytree(RUN, run)
            readme = os.path.join(root, "README.md")
            with open(readme, "w") as f:
                f.write(f"# Title\n\nbefore\n{readme_summary.BEGIN}\nold figures\n{readme_summary.END}\nafter\n")
            readme_summary.write_readme(run, readme)
            with open(readme) as f:
                text = f.read()
        self.assertTrue(text.startswith(f"# Title\n\nbefore\n{readme_summary.BEGIN}\nMeasured 2026-12-06 on 2 CPUs"))
        self.assertTrue(text.endswith(f"{readme_summary.END}\nafter\n"))
        self.assertNotIn("old figures", text)

    def test_a_sitting_appended_later_is_named_with_what_it_measured_and_its_own_time(self):
        meta = {"elapsed_s": 8967, "appended": [
            {"date": "2026-12-05T17:34:12+00:00", "only_overload": True, "elapsed_s": 3320,
             "plan": {"configs": ["kernel-200", "vt-adaptive", "vt-adaptive-twin"]}}]}
        self.assertEqual(estimate.sittings(meta),
                         "2 h 29 min in one sitting, the overload measured again (kernel-200, vt-adaptive, "
                         "vt-adaptive-twin) in a later sitting in 55 min on 2026-12-05")
        self.assertEqual(estimate.sittings({"elapsed_s": 3320}), "55 min in one sitting")

    def test_a_readme_without_the_markers_is_refused_and_left_alone(self):
        with tempfile.TemporaryDirectory() as root:
            readme = os.path.join(root, "README.md")
            with open(readme, "w") as f:
                f.write("# Title\n")
            with self.assertRaises(BenchError) as e:
                readme_summary.write_readme(RUN, readme)
            with open(readme) as f:
                self.assertEqual(f.read(), "# Title\n")
        self.assertIn("where the run of record goes", str(e.exception))


if __name__ == "__main__":
    unittest.main()
