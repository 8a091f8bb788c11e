"""Rounds spread over several invocations (--append, --points): round numbers continue per point."""
import unittest

from slingvt_bench.core.common import BenchError
from slingvt_bench.plan.closed_phase import last_round, parse_points
from slingvt_bench.plan.plans import point_duration


class AppendTest(unittest.TestCase):

    def test_points_are_workload_and_concurrency(self):
        self.assertEqual(parse_points("repo200:8000, page:4000"), {("repo200", 8000), ("page", 4000)})
        with self.assertRaises(BenchError):
            parse_points("repo200")

    def test_rounds_continue_after_the_earlier_invocation(self):
        rows = [dict(workload="R1s", concurrency="4000", round="1"), dict(workload="R1s", concurrency="4000", round="2"),
                dict(workload="R1s", concurrency="8000", round="1")]
        self.assertEqual(last_round(rows, "R1s", 4000), 2)
        self.assertEqual(last_round(rows, "R1s", 8000), 1)
        self.assertEqual(last_round(rows, "page", 100), 0)

    def test_ramp_reads_earlier_rows_from_text(self):
        class Args:
            duration = 20
        rows = [dict(config="vt", workload="R1s", concurrency="1000", rps_steady="500.0")]
        self.assertEqual(point_duration(Args, rows, "vt", "R1s", 8000), 20 + 16)  # 8,000 / 500 req/s

    def test_a_ramp_longer_than_the_measured_seconds_gets_twice_its_expected_time(self):
        class Args:
            duration = 12
        # full-2026-12-02c kernel-200 repo200: 440/s at C = 4,000, then a 27-35 s ramp at C = 8,000 (about 300/s)
        rows = [dict(config="k", workload="repo200", concurrency="4000", rps_steady="439.9")]
        self.assertEqual(point_duration(Args, rows, "k", "repo200", 8000), 12 + 38)  # 2 x 19 s
        self.assertEqual(point_duration(Args, rows, "k", "repo200", 4390), 12 + 10)  # 10 s: within the 12 s
        rows = [dict(config="k", workload="repo200", concurrency="100", rps_steady="100")]
        self.assertEqual(point_duration(Args, rows, "k", "repo200", 8000), 12 + 40)  # at most MAX_RAMP_S


if __name__ == "__main__":
    unittest.main()
