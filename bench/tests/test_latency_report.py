import os
import tempfile
import unittest

from slingvt_bench.reports import latency as latency_report


def row(config, conc, rps, mean_ms, rt="38.0"):
    return dict(config=config, workload="cold50", concurrency=str(conc), rps=str(rps), mean_ms=str(mean_ms),
                db_rt_per_req=rt)


class LatencyReportTest(unittest.TestCase):

    def test_bounds_wait_and_where_virtual_overtakes(self):
        rows = [row("kernel-200", 100, 180, 550), row("vt-unbounded", 100, 178, 560),
                row("vt-unbounded-twin", 100, 182, 555),
                row("kernel-200", 1000, 190, 5200), row("vt-unbounded", 1000, 260, 3800),
                row("vt-unbounded-twin", 1000, 250, 3900)]
        lines, overtakes = latency_report.summarize(5, rows)
        self.assertEqual(2, len(lines))
        first, second = lines
        self.assertIn("undecided", first)  # 178/180 inside the twins' 4/180 spread
        self.assertIn("| 380.0 |", first)  # 38 round trips x 2 x 5 ms
        # kernel-200's bound at C = 1,000: 200 threads / 0.55 s; vt-unbounded's: 1,000 / 0.56 s
        self.assertIn("| 364 |", second)
        self.assertIn("| 1,786 |", second)
        self.assertIn("virtual ahead", second)
        self.assertEqual({"cold50": 1000}, overtakes)

    def test_a_loss_is_reported_as_one(self):
        rows = [row("kernel-200", 100, 200, 500), row("vt-unbounded", 100, 150, 650),
                row("vt-unbounded-twin", 100, 151, 640)]
        lines, overtakes = latency_report.summarize(0, rows)
        self.assertIn("pool ahead", lines[0])
        self.assertEqual({}, overtakes)

    def test_write_names_a_missing_run(self):
        with tempfile.TemporaryDirectory() as out:
            text = latency_report.write(out, [0, 1])
            self.assertIn("0 ms: no results", text)
            self.assertTrue(os.path.isfile(os.path.join(out, "latency.md")))


if __name__ == "__main__":
    unittest.main()
