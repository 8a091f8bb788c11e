"""Rounds spread over several invocations (--append, --points): round numbers continue per point."""
import unittest

from slingvt_bench.cli import last_round, parse_points
from slingvt_bench.common import BenchError
from slingvt_bench.plan import point_duration


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


if __name__ == "__main__":
    unittest.main()
