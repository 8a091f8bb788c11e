"""Verdicts that can fail: inside the A/A twin's spread a ratio is undecided, never met."""
import unittest

from slingvt_bench.verdicts.closed import physical_limit, targets
from slingvt_bench.verdicts.decisive import decisive_configs, decisive_points
from slingvt_bench.verdicts.judge import aa_spread, verdict
from slingvt_bench.verdicts.ratios import Data


def row(config, thr, c=1000, rnd=1, cpu="", bound=""):
    return dict(config=config, workload="R1s", concurrency=str(c), round=str(rnd), rps_steady=str(thr), rps="",
                cpu_pct=str(cpu), little_bound_rps=str(bound))


class VerdictTest(unittest.TestCase):

    def test_met_missed_undecided(self):
        self.assertEqual(verdict(1.10, 1.0, 0.05), "met")
        self.assertEqual(verdict(0.90, 1.0, 0.05), "MISSED")
        self.assertTrue(verdict(1.03, 1.0, 0.05).startswith("undecided"))
        self.assertTrue(verdict(0.97, 1.0, 0.05).startswith("undecided"))
        self.assertEqual(verdict(None, 1.0, 0.05), "not measured")
        self.assertEqual(verdict(0.99, 1.0, None), "MISSED")  # no twin: nothing to call noise

    def test_a_gap_as_large_as_the_twins_is_undecided_whatever_its_base(self):
        # Open model R1s 50 %: auto 998.4 against kernel-200's 997.6 ms, its twin 999.2 ms in the same round. Both
        # gaps are 0.8 ms; as ratios, 1 - 997.6 / 998.4 exceeds 1 - 998.4 / 999.2 by 6e-7.
        self.assertTrue(verdict(997.6 / 998.4, 1.0, 1 - 998.4 / 999.2).startswith("undecided"))
        self.assertEqual(verdict(0.9990, 1.0, 0.0008), "MISSED")  # 0.2 per mille beyond the twins: a gap of its own
        self.assertEqual(verdict(1.0010, 1.0, 0.0008), "met")

    def test_aa_spread_is_the_largest_twin_difference_over_the_rounds(self):
        d = Data([row("vt-unbounded", 100, rnd=1), row("vt-unbounded-twin", 95, rnd=1),
                  row("vt-unbounded", 100, rnd=2), row("vt-unbounded-twin", 110, rnd=2)])
        self.assertAlmostEqual(aa_spread(d, "R1s", 1000), 1 - 100 / 110, places=6)  # round 2 differs most
        self.assertIsNone(aa_spread(Data([row("vt-unbounded", 100)]), "R1s", 1000))

    def test_a_steady_window_between_two_waves_falls_back_to_the_whole_run(self):
        d = Data([dict(config="k", workload="R1s", concurrency="8000", round="1", rps_steady="0.0", rps="135.9")])
        self.assertEqual(d.get("k", "R1s", 8000, "thr"), "135.9")

    def test_median_round_of_a_point(self):
        d = Data([row("k", 90, rnd=1), row("k", 200, rnd=2), row("k", 100, rnd=3)])
        self.assertEqual(d.get("k", "R1s", 1000, "thr"), "100")

    def test_physical_limit_is_the_lower_of_c_over_r_and_the_cpu_limit(self):
        # 50 % of one core for 1,000 req/s = 0.5 ms per request: 2 cores -> 4,000 req/s; C/R = 1,000.
        d = Data([row("k", 1000, cpu=50, bound=1000)])
        self.assertEqual(physical_limit(d, "R1s", 1000, 2), 1000)
        d = Data([row("k", 1000, cpu=50, bound=8000)])
        self.assertEqual(physical_limit(d, "R1s", 1000, 2), 4000)

    def test_the_setup_targets_are_judged_for_unbounded_and_adaptive_alike(self):
        rows = [row(v, 1000, c=1000, cpu=100, bound=1000) for v in ("vt-unbounded", "vt-adaptive")]
        rows += [row("vt-unbounded", 1000, c=8000, cpu=150, bound=8000), row("vt-adaptive", 1000, c=8000, cpu=105,
                                                                                bound=8000)]
        out = {label: v for label, _, v in targets(Data(rows), dict(machine=dict(nproc=2)))}
        self.assertEqual(out["R=1 s: vt-unbounded CPU per request at C=8,000 within 10 % of C=1,000"], "MISSED")
        self.assertEqual(out["R=1 s: vt-adaptive CPU per request at C=8,000 within 10 % of C=1,000"], "met")

    def test_cpu_growth_inside_the_twins_cpu_spread_is_undecided(self):
        # vt-unbounded: 1.00 ms per request at C=1,000, 1.15 ms at C=8,000 (+15 %, goal +10 %).
        rows = [row("vt-unbounded", 1000, c=1000, cpu=100), row("vt-unbounded", 1000, c=8000, cpu=115)]
        label = "R=1 s: vt-unbounded CPU per request at C=8,000 within 10 % of C=1,000"
        alone = {t: v for t, _, v in targets(Data([dict(r) for r in rows]), dict(machine=dict(nproc=2)))}
        self.assertEqual(alone[label], "MISSED")  # no twin: taken as measured
        # The twin used 1.05 ms per request at C=8,000: the twins differ by 9.5 %, more than 15 % is from 10 %.
        twin = [row("vt-unbounded-twin", 1000, c=1000, cpu=100), row("vt-unbounded-twin", 1000, c=8000, cpu=105)]
        out = {t: v for t, _, v in targets(Data(rows + twin), dict(machine=dict(nproc=2)))}
        self.assertTrue(out[label].startswith("undecided"), out[label])
        # A growth far outside the spread stays missed: both twins at +100 %, 2 % apart.
        far = [row("vt-unbounded", 1000, c=1000, cpu=100), row("vt-unbounded", 1000, c=8000, cpu=200),
               row("vt-unbounded-twin", 1000, c=1000, cpu=100), row("vt-unbounded-twin", 1000, c=8000, cpu=196)]
        out = {t: v for t, _, v in targets(Data(far), dict(machine=dict(nproc=2)))}
        self.assertEqual(out[label], "MISSED")

    def test_detector_cost_inside_the_aa_spread_is_undecided(self):
        label = "pinning detector costs nothing measurable: vt-unbounded : vt-no-detector (median over points ≥ 0.97)"
        pair = [row("vt-unbounded", 96), row("vt-no-detector", 100)]  # 0.96x: below 0.97 by 1 %
        out = {t: v for t, _, v in targets(Data([dict(r) for r in pair]))}
        self.assertEqual(out[label], "MISSED")
        out = {t: v for t, _, v in targets(Data(pair + [row("vt-unbounded-twin", 100)]))}  # twins differ by 4 %
        self.assertTrue(out[label].startswith("undecided"), out[label])
        out = {t: v for t, _, v in targets(Data([row("vt-unbounded", 80), row("vt-no-detector", 100),
                                                 row("vt-unbounded-twin", 82)]))}
        self.assertEqual(out[label], "MISSED")

    def test_thread_peak_inside_the_twins_thread_spread_is_undecided(self):
        label = "under load, virtual mode: ≤ 60 live OS threads (vt-unbounded, every point)"
        peak = dict(row("vt-unbounded", 100), threads_max="62")
        out = {t: v for t, _, v in targets(Data([dict(peak)]))}
        self.assertEqual(out[label], "MISSED")
        out = {t: v for t, _, v in targets(Data([peak, dict(row("vt-unbounded-twin", 100), threads_max="58")]))}
        self.assertTrue(out[label].startswith("undecided"), out[label])

    def test_decisive_rounds_measure_unbounded_only_where_a_target_compares_it(self):
        full = ["kernel-200", "kernel-1000", "vt-unbounded", "vt-adaptive", "vt-adaptive-twin"]
        without = [c for c in full if c != "vt-unbounded"]
        self.assertEqual(decisive_configs(full, "repo200", 100, "vt-adaptive"), without)
        self.assertEqual(decisive_configs(full, "page", 8000, "vt-adaptive"), without)
        self.assertEqual(decisive_configs(full, "R100ms", 100, "vt-adaptive"), without)
        self.assertEqual(decisive_configs(full, "R100ms", 1000, "vt-adaptive"), full)  # its wins kept
        self.assertEqual(decisive_configs(full, "R1s", 8000, "vt-adaptive"), full)
        older = ["kernel-200", "kernel-1000", "vt-unbounded", "vt-unbounded-twin"]
        self.assertEqual(decisive_configs(older, "page", 100, "vt-unbounded"), older)  # the judged one itself

    def test_decisive_points_are_those_close_to_a_goal_shortfalls_first_then_closest_first(self):
        def pt(w, c, vt, k200, felix):
            return [dict(config=cf, workload=w, concurrency=str(c), round="1", rps_steady=str(t), rps="")
                    for cf, t in (("vt-unbounded", vt), ("kernel-200", k200), ("felix-virtual", felix))]
        rows = (pt("R10ms", 1000, 200, 100, 105)      # 2x both: settled
                + pt("repo200", 8000, 95, 100, 50)    # 0.95x kernel-200: short of its goal
                + pt("page", 4000, 110, 100, 108)     # 1.10x kernel-200, 1.02x felix: closer, but ahead
                + pt("page", 8000, 104, 100, 300)     # 1.04x kernel-200: ahead, further
                + pt("R100ms", 100, 300, 100, 200))   # 1.5x felix: settled
        grid = [("R10ms", 1000), ("repo200", 8000), ("page", 4000), ("page", 8000), ("R100ms", 100)]
        self.assertEqual(decisive_points(Data(rows), grid, "vt-unbounded", 2, 6),
                         [("repo200", 8000), ("page", 4000), ("page", 8000)])
        # A budget of one goes to the shortfall: one round short beyond the spread would be judged missed.
        self.assertEqual(decisive_points(Data(rows), grid, "vt-unbounded", 2, 1), [("repo200", 8000)])

    def test_a_point_every_configuration_took_to_littles_bound_is_decisive_only_where_the_default_trails(self):
        def pt(w, c, vt, k200):
            return [dict(config=cf, workload=w, concurrency=str(c), round="1", rps_steady=str(t), rps="",
                         little_bound_rps=str(c)) for cf, t in (("vt-unbounded", vt), ("kernel-200", k200))]
        rows = (pt("R1s", 100, 100.0, 99.6)       # at C/R, the default ahead: physics decided
                + pt("R1s", 1000, 988.0, 1002.0)  # at C/R, the default 1.4 % behind: rounds decide
                + pt("page", 8000, 900.0, 1000.0))  # far below C/R, 0.9x: close to its goal
        grid = [("R1s", 100), ("R1s", 1000), ("page", 8000)]
        self.assertEqual(decisive_points(Data(rows), grid, "vt-unbounded", 2, 6), [("R1s", 1000), ("page", 8000)])


if __name__ == "__main__":
    unittest.main()


class QuickRunTest(unittest.TestCase):

    def test_without_the_twin_a_ratio_is_shown_not_judged(self):
        from slingvt_bench.plan.plans import QUICK
        from slingvt_bench.verdicts.judge import RATIO_ONLY, ratios_only
        self.assertEqual(QUICK["configs"], ["kernel-200", "vt-unbounded", "vt-adaptive"])
        judged = [("a", "1.00×", "MISSED"), ("b", "1.20×", "met"), ("c", "0.99×", "undecided (within ±2 %)"),
                  ("d", "failed", "MISSED (failed: vt-adaptive R1s C=1000)"), ("e", "–", "not measured")]
        shown = ratios_only(judged, QUICK["configs"])
        self.assertEqual([v for *_, v in shown], [RATIO_ONLY] * 3 + [judged[3][2], "not measured"])
        self.assertEqual(ratios_only(judged, QUICK["configs"] + ["vt-adaptive-twin"]), judged)
