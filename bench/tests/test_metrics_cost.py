import unittest

from slingvt_bench.verdicts.metrics_cost import verdict


class MetricsCostVerdictTest(unittest.TestCase):

    def test_met_at_or_above_the_target(self):
        ratio, spread, outcome = verdict([990, 995, 985], [1000, 1005, 995])
        self.assertEqual(outcome, "met")
        self.assertAlmostEqual(ratio, 0.99, places=3)

    def test_a_shortfall_inside_the_spread_is_undecided(self):
        # on 0.97x, but the runs of either arm spread by 5 %
        self.assertEqual(verdict([970, 950, 990], [1000, 980, 1030])[2], "undecided")

    def test_a_shortfall_beyond_the_spread_is_missed(self):
        ratio, spread, outcome = verdict([900, 901, 899], [1000, 1001, 999])
        self.assertEqual(outcome, "missed")
        self.assertLess(spread, 0.01)


if __name__ == "__main__":
    unittest.main()
