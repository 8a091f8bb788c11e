"""oha: the capacity a fixed rate is derived from, the connection count, and a summary as a results row."""
import os
import tempfile
import unittest
from unittest import mock

from slingvt_bench.core import open_rows, setups
from slingvt_bench.load import oha as openload
from slingvt_bench.reports import open_section


class OpenLoadTest(unittest.TestCase):

    def test_capacity_is_the_best_steady_rate_else_the_best_whole_run_rate(self):
        rows = [dict(config="a", workload="w", rps_steady="900", rps="800"),
                dict(config="a", workload="w", rps_steady="1200", rps="1000"),
                dict(config="b", workload="w", rps_steady="", rps="300"),
                dict(config="a", workload="x", rps_steady="5", rps="5")]
        self.assertEqual(open_rows.capacity(rows, "a", "w"), 1200.0)
        self.assertEqual(open_rows.capacity(rows, "b", "w"), 300.0)
        self.assertIsNone(open_rows.capacity(rows, "c", "w"))

    def test_oha_built_once_in_the_users_cache_serves_every_checkout_before_a_checkouts_own(self):
        def executable(path):
            os.makedirs(os.path.dirname(path))
            with open(path, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(path, 0o755)

        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as root, \
                mock.patch.dict(os.environ, {"XDG_CACHE_HOME": cache}), \
                mock.patch.object(openload.shutil, "which", return_value=None):
            mine = os.path.join(root, ".sling-vt", "tools", "bin", "oha")
            executable(mine)
            self.assertEqual(openload.ensure_oha(root, print), mine)
            shared = os.path.join(cache, "sling-vt", f"oha-{setups.OHA_VERSION}", "bin", "oha")
            executable(shared)
            self.assertEqual(openload.ensure_oha(root, print), shared)
            self.assertEqual(openload.ensure_oha(os.path.join(root, "another-clone"), print), shared)

    def test_connections_cover_twice_r_plus_half_a_second_and_at_least_64(self):
        self.assertEqual(open_rows.connections(1000, 100, 20000), 700)
        self.assertEqual(open_rows.connections(10, 10, 20000), 64)
        self.assertEqual(open_rows.connections(20000, 1000, 20000), 8000)

    def test_row_counts_ok_answers_only_and_leaves_requests_in_flight_at_the_end_out_of_errors(self):
        summary = {"statusCodeDistribution": {"200": 950, "503": 50},
                   "errorDistribution": {open_rows.IN_FLIGHT_AT_END: 7, "connection reset": 2},
                   "latencyPercentiles": {"p50": 0.1, "p90": 0.2, "p95": 0.3, "p99": 0.5, "p99.9": 1.25},
                   "summary": {"slowest": 2.0}}
        r = open_rows.row("vt", "R100ms", 0.9, 1111.1, 1000.0, 700, 10, summary)
        self.assertEqual(r["achieved_rps"], 95.0)
        self.assertEqual(r["non2xx"], 50)
        self.assertEqual(r["errors"], 2)
        self.assertEqual((r["p50_ms"], r["p95_ms"], r["p99_ms"], r["p999_ms"], r["max_ms"]),
                         (100.0, 300.0, 500.0, 1250.0, 2000.0))

    def test_section_links_one_latency_plot_per_workload_in_the_order_measured(self):
        with tempfile.TemporaryDirectory() as out:
            rows = [open_rows.row(cf, w, fr, 1000.0, 1000.0 * fr, 700, 20, {"statusCodeDistribution": {"200": 10}},
                                 "kernel-200", 1500.0)
                    for w in ("R1s", "page") for fr in open_rows.FRACTIONS for cf in ("kernel-200", "vt-unbounded")]
            open_rows.write_csv(os.path.join(out, "openmodel.csv"), rows)
            text = open_section.section(out)
        self.assertIn("[R1s](latency-R1s.svg), [page](latency-page.svg).", text)
        self.assertEqual(text.count("| R1s | 900.0 | 90 % of kernel-200 1000.0 |"), 2)

    def test_every_configuration_gets_the_same_offered_rates_of_kernel_200s_capacity(self):
        rows = [dict(config=cf, workload="R100ms", rps_steady=str(cap), rps=str(cap))
                for cf, cap in (("kernel-200", 1000), ("vt-unbounded", 4000), ("felix-virtual", 800))]
        ref, cap, rates = open_rows.offered_rates(rows, ["felix-virtual", "kernel-200", "vt-unbounded"], "R100ms",
                                                 open_rows.FRACTIONS)
        self.assertEqual((ref, cap, rates), ("kernel-200", 1000.0, [(0.5, 500.0), (0.9, 900.0)]))
        # Without kernel-200: the lowest capacity, so that every configuration reached the rates in the closed model.
        self.assertEqual(open_rows.offered_rates(rows, ["vt-unbounded", "felix-virtual"], "R100ms", (0.5,)),
                         ("felix-virtual", 800.0, [(0.5, 400.0)]))
        self.assertEqual(open_rows.offered_rates(rows, ["vt-unbounded"], "R1s", (0.5,)), (None, None, []))

    def test_open_model_drives_all_configurations_at_the_shared_rates_and_keeps_failed_runs(self):
        from unittest import mock
        from slingvt_bench.plan import open_phase
        from slingvt_bench.core.common import BenchError

        class Inst:
            def __init__(self, name):
                self.name, self.url, self.pid, self.info = name, "http://127.0.0.1:1", 1, {}

            def check_alive(self):
                if self.name == "felix-virtual":
                    raise BenchError("felix-virtual: Sling exited (code 1)")

        class Args:
            quick, oha, append, fd_limit = False, "oha", None, 20000
        closed = [dict(config=cf, workload="R100ms", rps_steady=str(cap), rps=str(cap))
                  for cf, cap in (("kernel-200", 1000), ("vt-unbounded", 4000), ("felix-virtual", 800))]
        live = [Inst("vt-unbounded"), Inst("kernel-200"), Inst("felix-virtual")]
        driven = []

        def oha(args, cmd, duration, out_json):
            driven.append((out_json.split("oha-")[1], cmd[cmd.index("-q") + 1]))
            return {"statusCodeDistribution": {"200": 10}, "latencyPercentiles": {"p50": 0.1, "p99": 0.2}}
        with tempfile.TemporaryDirectory() as out, mock.patch.object(open_phase, "run_oha", oha), \
                mock.patch.object(open_phase, "wait_quiet"), mock.patch.object(open_phase, "http_get"), \
                mock.patch.object(open_phase, "log"), mock.patch.object(open_phase.time, "sleep"), \
                mock.patch.object(open_phase, "ensure_running", return_value=None):
            open_phase.run(Args, live, dict(workloads=["R100ms"], pause=0), closed, out, out)
            rows = open_rows.read_csv(os.path.join(out, "openmodel.csv"))
            text = open_section.section(out)
        self.assertEqual(sorted(driven), [("kernel-200-R100ms-50.json", "500.0"), ("kernel-200-R100ms-90.json", "900.0"),
                                          ("vt-unbounded-R100ms-50.json", "500.0"),
                                          ("vt-unbounded-R100ms-90.json", "900.0")])
        by_rate = {}
        for r in rows:
            by_rate.setdefault(r["target_rps"], set()).add(r["config"])
        self.assertEqual(by_rate, {"500.0": {"kernel-200", "vt-unbounded", "felix-virtual"},
                                   "900.0": {"kernel-200", "vt-unbounded", "felix-virtual"}})
        felix = [r for r in rows if r["config"] == "felix-virtual"]
        self.assertTrue(all("Sling exited" in r["failed"] for r in felix), felix)
        self.assertIn("| R100ms | 900.0 | 90 % of kernel-200 1000.0 | vt-unbounded | 4000.0 |", text)
        self.assertIn("| R100ms | 500.0 | 50 % of kernel-200 1000.0 | felix-virtual | 800.0 | **failed**", text)


if __name__ == "__main__":
    unittest.main()
