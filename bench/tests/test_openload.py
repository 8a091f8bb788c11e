"""oha: the capacity a fixed rate is derived from, the connection count, and a summary as a results row."""
import os
import tempfile
import unittest

from slingvt_bench import openload


class OpenLoadTest(unittest.TestCase):

    def test_capacity_is_the_best_steady_rate_else_the_best_whole_run_rate(self):
        rows = [dict(config="a", workload="w", rps_steady="900", rps="800"),
                dict(config="a", workload="w", rps_steady="1200", rps="1000"),
                dict(config="b", workload="w", rps_steady="", rps="300"),
                dict(config="a", workload="x", rps_steady="5", rps="5")]
        self.assertEqual(openload.capacity(rows, "a", "w"), 1200.0)
        self.assertEqual(openload.capacity(rows, "b", "w"), 300.0)
        self.assertIsNone(openload.capacity(rows, "c", "w"))

    def test_connections_cover_twice_r_plus_half_a_second_and_at_least_64(self):
        self.assertEqual(openload.connections(1000, 100), 700)
        self.assertEqual(openload.connections(10, 10), 64)

    def test_row_counts_ok_answers_only_and_leaves_requests_in_flight_at_the_end_out_of_errors(self):
        summary = {"statusCodeDistribution": {"200": 950, "503": 50},
                   "errorDistribution": {openload.IN_FLIGHT_AT_END: 7, "connection reset": 2},
                   "latencyPercentiles": {"p50": 0.1, "p90": 0.2, "p99": 0.5, "p99.9": 1.25},
                   "summary": {"slowest": 2.0}}
        r = openload.row("vt", "R100ms", 0.9, 1111.1, 1000.0, 700, 10, summary)
        self.assertEqual(r["achieved_rps"], 95.0)
        self.assertEqual(r["non2xx"], 50)
        self.assertEqual(r["errors"], 2)
        self.assertEqual((r["p50_ms"], r["p99_ms"], r["p999_ms"], r["max_ms"]), (100.0, 500.0, 1250.0, 2000.0))

    def test_section_links_one_latency_plot_per_workload_in_the_order_measured(self):
        with tempfile.TemporaryDirectory() as out:
            rows = [openload.row(cf, w, fr, 1000.0, 1000.0 * fr, 700, 20, {"statusCodeDistribution": {"200": 10}})
                    for w in ("R1s", "page") for fr in openload.FRACTIONS for cf in ("kernel-200", "vt-unbounded")]
            openload.write_csv(os.path.join(out, "openmodel.csv"), rows)
            text = openload.section(out)
        self.assertIn("[R1s](latency-R1s.svg), [page](latency-page.svg).", text)
        self.assertEqual(text.count("| R1s | 90 % |"), 2)


if __name__ == "__main__":
    unittest.main()
