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

    def test_the_counts_link_every_target_and_the_table_marks_each_ratio_against_its_goal(self):
        text = readme_summary.summary(RUN, ROOT)
        self.assertIn("**0 missed**, 18 undecided, 49 met ([every target, losses first]"
                      "(docs/benchmarks/full-2026-12-06b/results.md))", text)
        self.assertIn("[full-2026-12-06b](docs/benchmarks/full-2026-12-06b/README.md)", text)
        self.assertIn("| R10ms | 100 | 1,368 (k200) | 3,446 | 2,912 / 2,876 | 2.13× | **0.85×** |", text)
        self.assertIn("| R100ms | 100 | 977 (k200) | 959 | 980 / 981 | 1.00×? | 1.02× |", text)
        self.assertIn("| repo200 | 4,000 | 355 (k200) | 255 † | 419 / 430 | 1.18× | 1.64× |", text)
        self.assertIn("repo200 413 / 393 and 398 / 373", text)
        self.assertIn("Live OS threads under load: 61 at most in virtual mode, 1,060 in kernel mode.", text)
        self.assertLess(len(text.splitlines()), 40, "a short table: the targets themselves are in results.md")

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
        self.assertTrue(text.startswith(f"# Title\n\nbefore\n{readme_summary.BEGIN}\nRun of record: "
                                        "[full-2026-12-06b](docs/benchmarks/full-2026-12-06b/README.md)"))
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
