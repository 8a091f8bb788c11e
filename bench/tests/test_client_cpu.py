"""The load generator's CPU read while it runs (load.ClientCpu): what the client takes of the 2 cores it shares with
the server."""
import sys
import unittest

from slingvt_bench.load import runner as load


class Args:
    load_cpus = None


class ClientCpuTest(unittest.TestCase):

    def run_child(self, code):
        usage = {}
        rc = load.run_load(Args, "test-client", [sys.executable, "-c", code], 20, None, None, usage=usage)
        self.assertEqual(rc, 0)
        return usage["client_cpu_pct"]

    def test_a_busy_client_reads_near_one_cpu_and_an_idle_one_near_none(self):
        busy = self.run_child("import time\nt = time.time() + 1.6\nwhile time.time() < t: pass")
        idle = self.run_child("import time\ntime.sleep(1.6)")
        self.assertGreater(busy, 30.0)   # one thread spinning: about 100 % of one CPU, less on a loaded machine
        self.assertLess(busy, 130.0)     # one thread cannot take more than one CPU
        self.assertLess(idle, 15.0)

    def test_a_client_too_short_for_two_reads_a_second_apart_has_no_figure(self):
        self.assertEqual(self.run_child("pass"), "")


if __name__ == "__main__":
    unittest.main()
