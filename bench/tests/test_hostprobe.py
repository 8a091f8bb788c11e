import os
import shutil
import tempfile
import unittest

from slingvt_bench.reports import host_table
from slingvt_bench.samples import hostprobe
from slingvt_bench.verdicts import host_state
from slingvt_bench.verdicts.ratios import Data


def row(config, before, after, c=1000, w="repo200"):
    return dict(config=config, workload=w, concurrency=str(c), round="1", rps_steady="500.0", rps="480.0",
                steady_window_s="10", handover_ns=before, handover_ns_after=after)


class HostProbeTest(unittest.TestCase):

    def test_the_probe_line_is_read_and_anything_else_is_not(self):
        self.assertEqual(hostprobe.parse("52.8 ns per hand-over (CPUs 0 and 1)\n"), 52.8)
        self.assertIsNone(hostprobe.parse("hostprobe: cannot pin a thread to CPU 1\n"))
        self.assertIsNone(hostprobe.parse(""))

    def test_a_state_change_is_a_factor_of_two_either_way(self):
        self.assertTrue(host_state.changed(45.0, 201.0))
        self.assertTrue(host_state.changed("198.3", "43.1"))
        self.assertFalse(host_state.changed(45.0, 66.7))
        self.assertFalse(host_state.changed("", 45.0))

    def test_a_shortfall_in_two_states_comes_first_and_a_lead_keeps_its_distance(self):
        self.assertEqual(host_state.decisive_gap(0.69, 1.0, True), (0.0, True))
        gap, host = host_state.decisive_gap(1.45, 1.0, True)
        self.assertAlmostEqual(gap, 0.45)
        self.assertTrue(host)
        gap, host = host_state.decisive_gap(0.69, 1.0, False)
        self.assertAlmostEqual(gap, 0.31)
        self.assertFalse(host)
        self.assertFalse(host_state.decisive_gap(0.3, 0.9, True)[1])  # beyond what the host has moved

    def test_what_the_host_can_explain_and_which_rounds_a_comparison_uses(self):
        self.assertTrue(host_state.host_explains(0.74, 1.0))
        self.assertFalse(host_state.host_explains(0.4, 1.0))
        self.assertFalse(host_state.host_explains(None, 1.0))
        self.assertEqual(host_state.in_one_state([(1.1, True), (0.6, False), (1.0, True)]), ([1.1, 1.0], True))
        self.assertEqual(host_state.in_one_state([(0.6, False), (0.7, None)]), ([0.6, 0.7], False))
        self.assertTrue(host_state.only_two_states([False, None]))
        self.assertFalse(host_state.only_two_states([False, True]))
        self.assertFalse(host_state.only_two_states([None, None]))

    def test_without_a_probe_nothing_is_measured(self):
        self.assertEqual(hostprobe.measure(None), "")

    def test_the_probe_builds_and_measures_where_there_is_a_compiler_and_two_cpus(self):
        root = tempfile.mkdtemp()
        try:
            binary = hostprobe.build(root)
            if (shutil.which("cc") or shutil.which("gcc")) and len(hostprobe.cpus()) >= 2:
                self.assertTrue(binary and os.access(binary, os.X_OK), binary)
                ns = hostprobe.measure(binary)
                self.assertIsInstance(ns, float)
                self.assertGreater(ns, 0.0)
            else:
                self.assertIsNone(binary)
        finally:
            shutil.rmtree(root)

    def test_results_show_each_points_probes_and_mark_a_change_of_state(self):
        d = Data([row("kernel-200", "45.2", "47.0"), row("vt-adaptive", "44.0", "201.3")])
        text = "\n".join(host_table.section(d))
        self.assertIn("| repo200 | 1,000 | 45 / 47 | 44 / 201 * |", text)

    def test_a_run_without_probes_has_no_such_section(self):
        d = Data([row("kernel-200", "", ""), row("vt-adaptive", "", "")])
        self.assertEqual(host_table.section(d), [])


if __name__ == "__main__":
    unittest.main()
