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
RUN = os.path.join(ROOT, "docs", "benchmarks", "full-2026-11-28b")


class ReadmeSummaryTest(unittest.TestCase):

    def test_the_counts_and_losses_are_the_runs_targets_judged_by_todays_rules(self):
        text = readme_summary.summary(RUN, ROOT)
        with open(os.path.join(RUN, "results.md")) as f:
            results = f.read()
        # Its results.md was drawn before the rule "client out of connections" (METHOD.md): the four shortfalls from
        # "90 % of its own capacity" where the client's connections were all taken were misses then and are undecided
        # now. "P99 at the client's timeout" makes R100ms 200 %'s p99, 9,876.5 against 9,914.5 ms at a 10 s timeout,
        # undecided: 45 met became 44. "P99 sampling error" makes
        # three open-model p99s within their sampling error undecided: the miss at repo200 50 % (102.8 against 101.3
        # ms) and the two met at R1s (998.0 / 998.3 against 998.5 / 999.1 ms).
        self.assertIn("6 missed, 16 undecided, 45 met", results)
        self.assertIn("**1 missed**, 24 undecided, 42 met", text)
        self.assertIn("[full-2026-11-28b](docs/benchmarks/full-2026-11-28b/README.md)", text)
        missed, undecided = text.split("Missed:")[1].split("Undecided")
        self.assertEqual(missed.count("\n- "), 1)
        self.assertIn("- closed repo200 C=100: vt-adaptive ≥ 1.0 × the better kernel pool (kernel-1000): 0.93×\n",
                      missed)
        self.assertNotIn("connections all taken", missed)
        self.assertIn("- overload R10ms at 4370.4/s (200 % of kernel-200): vt-adaptive ≥ 90 % of its own closed-model "
                      "capacity (at most the offered rate): 1,801.5 of min(offered 4,370.4, own 3,343.5)/s = 54 % (the "
                      "client's 8,000 connections all taken)\n", undecided)
        self.assertIn("- open model repo200 at 50 % of kernel-200's capacity: vt-adaptive p99 ≤ kernel-200's: 102.8 vs "
                      "101.3 ms", undecided)
        self.assertIn("- overload R100ms at 3906.8/s (200 % of kernel-200): vt-adaptive p99 of its answers ≤ "
                      "kernel-200's: 9,876.5 vs 9,914.5 ms", undecided)
        # The client ran out of connections at four points; repo200 at 200 % kept 2,148 of 8,000 free.
        self.assertNotIn("repo200 at 1087.8/s (200 % of kernel-200): vt-adaptive ≥ 90 % of its own closed-model "
                         "capacity (at most the offered rate): 474.1 of min(offered 1,087.8, own 495.5)/s = 96 % (the",
                         text)

    def test_the_table_marks_each_ratio_against_its_goal(self):
        text = readme_summary.summary(RUN, ROOT)
        self.assertIn("| repo200 | 100 | 506 (k1000) | 350 | 472 / 486 | **0.93×** | 1.35× |", text)
        self.assertIn("| R100ms | 1,000 | 2,280 (k1000) | 3,326 | 3,019 / 3,146 | 1.38× | 0.93×? |", text)
        self.assertIn("| page | 8,000 | 1,711 (k200) | 676 † | 1,828 / 2,332 | 1.07×? | 2.71× |", text)
        self.assertIn("repo200 433 / 407 and 474 / 337", text)
        self.assertIn("Live OS threads under load: 61 at most in virtual mode, 1,061 in kernel mode.", text)

    def test_only_the_text_between_the_markers_changes(self):
        with tempfile.TemporaryDirectory() as root:
            run = os.path.join(root, "docs", "benchmarks", "full-2026-11-28b")
            shutil.copytree(RUN, run)
            readme = os.path.join(root, "README.md")
            with open(readme, "w") as f:
                f.write(f"# Title\n\nbefore\n{readme_summary.BEGIN}\nold figures\n{readme_summary.END}\nafter\n")
            readme_summary.write_readme(run, readme)
            with open(readme) as f:
                text = f.read()
        self.assertTrue(text.startswith(f"# Title\n\nbefore\n{readme_summary.BEGIN}\nRun of record: "
                                        "[full-2026-11-28b](docs/benchmarks/full-2026-11-28b/README.md)"))
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
