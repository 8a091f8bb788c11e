"""The report never shrinks or dresses up the grid: whole-run rates are marked, failed points stay in it."""
import unittest

from slingvt_bench.core.rows import throughput
from slingvt_bench.reports.report import markdown
from slingvt_bench.verdicts.closed import targets
from slingvt_bench.verdicts.ratios import Data


def row(config, steady, rps, c=8000, window="15", w="repo200"):
    return dict(config=config, workload=w, concurrency=str(c), round="1", rps_steady=steady, rps=rps,
                steady_window_s=window, p50_ms="100", p99_ms="900", socket_errors="0", non2xx="0")


def line_of(text, start):
    return next(ln for ln in text.splitlines() if ln.startswith(start))


class WholeRunRateTest(unittest.TestCase):

    def test_throughput_says_when_it_is_not_the_steady_rate(self):
        self.assertEqual(throughput(row("k", "120.0", "100.0")), ("120.0", ""))
        self.assertEqual(throughput(row("k", "0.0", "135.9")), ("135.9", "steady window empty: whole-run rate"))
        value, note = throughput(row("k", "", "80.0", window="3"))
        self.assertEqual(value, "80.0")
        self.assertIn("3 s < 5 s", note)
        self.assertEqual(throughput(row("k", "0.0", "0.0")), ("0.0", ""))  # nothing answered: 0 is the rate

    def test_an_empty_steady_window_is_marked_next_to_the_number_and_listed(self):
        d = Data([row("kernel-200", "500.0", "480.0"), row("vt-unbounded", "0.0", "135.9")])
        text = markdown(d, {})
        self.assertIn("| repo200 | 8,000 | – | 500 | 136 † |", text)
        listed = line_of(text, "| vt-unbounded | repo200 | 8,000 | 0.0 |")
        self.assertIn("steady window empty: whole-run rate", listed)
        self.assertNotIn("| kernel-200 | repo200 | 8,000 | 500.0 |", text)  # a steady rate is not listed

    def test_verdicts_count_the_points_on_a_whole_run_rate(self):
        d = Data([row("kernel-200", "500.0", "480.0"), row("vt-unbounded", "0.0", "600.0")])
        out = {t: m for t, m, _ in targets(d)}
        self.assertIn("1 on a whole-run rate †", out["every point: vt-unbounded ≥ 1.0 × kernel-200"])



class RoundsTextTest(unittest.TestCase):

    def test_the_spread_section_says_when_a_decisive_point_left_a_configuration_out(self):
        def rounds(config, n):
            return [dict(row(config, "500.0", "500.0"), round=str(k)) for k in range(1, n + 1)]
        every = Data(rounds("kernel-200", 3) + rounds("vt-adaptive", 3) + rounds("vt-adaptive-twin", 3))
        some = Data(rounds("kernel-200", 3) + rounds("vt-adaptive", 3) + rounds("vt-adaptive-twin", 3)
                    + rounds("vt-unbounded", 1))
        self.assertNotIn("only those its targets compare", markdown(every, {}))
        self.assertIn("; at a decisive point only those its targets compare (vt-unbounded where its wins kept are "
                      "judged).", markdown(some, {}))


if __name__ == "__main__":
    unittest.main()
