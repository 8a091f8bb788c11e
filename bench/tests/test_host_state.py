"""Comparisons of two configurations use the rounds measured in one state of the host (hostprobe); where every round
was measured in two states, a ratio the host alone could have moved decides nothing."""
import unittest

from slingvt_bench.reports.report import losses_first
from slingvt_bench.verdicts import host_state, open_rounds, overload as overload_open_report, overload_decisive
from slingvt_bench.verdicts.decisive import decisive_points
from slingvt_bench.verdicts.judge import HOST_UNDECIDED, aa_spread, judged
from slingvt_bench.verdicts.ratios import Data
from slingvt_bench.verdicts.safe_default import OVER_CAPACITY, closed, open_p99
from tests.test_overload_open import section_of

CHEAP, DEAR = ("45.0", "47.0"), ("198.0", "203.0")


def row(config, thr, rnd, state, w="repo200", c=1000):
    return dict(config=config, workload=w, concurrency=str(c), round=str(rnd), rps_steady=str(thr), rps="",
                handover_ns=state[0] if state else "", handover_ns_after=state[1] if state else "")


class HostStateTest(unittest.TestCase):

    def test_rows_are_in_one_state_when_all_their_probes_are_within_a_factor_of_two(self):
        self.assertTrue(host_state.same_state(row("a", 1, 1, CHEAP), row("b", 1, 1, ("60.0", "88.0"))))
        self.assertFalse(host_state.same_state(row("a", 1, 1, CHEAP), row("b", 1, 1, DEAR)))
        self.assertFalse(host_state.same_state(row("a", 1, 1, ("45.0", "201.0")), row("b", 1, 1, CHEAP)))
        self.assertIsNone(host_state.same_state(row("a", 1, 1, CHEAP), row("b", 1, 1, None)))

    def test_a_ratio_leaves_out_the_rounds_measured_in_two_states(self):
        # Round 2: auto in the dear state, kernel-200 in the cheap one (0.55x); rounds 1 and 3 in one state each.
        d = Data([row("vt-adaptive", 500, 1, DEAR), row("kernel-200", 460, 1, DEAR),
                  row("vt-adaptive", 420, 2, DEAR), row("kernel-200", 760, 2, CHEAP),
                  row("vt-adaptive", 840, 3, CHEAP), row("kernel-200", 750, 3, CHEAP)])
        self.assertEqual([round(x, 3) for x in d.round_ratios("vt-adaptive", "kernel-200", "repo200", 1000)],
                         [round(500 / 460, 3), round(840 / 750, 3)])
        self.assertAlmostEqual(d.ratio("vt-adaptive", "kernel-200", "repo200", 1000), 500 / 460)
        self.assertFalse(d.state_differed("vt-adaptive", "kernel-200", "repo200", 1000))
        # All three rounds, the mixed one marked, in the run-to-run table's cells.
        self.assertEqual([s for *_, s in d.round_pairs("vt-adaptive", "kernel-200", "repo200", 1000)],
                         [True, False, True])

    def test_one_round_in_one_state_is_the_ratio_even_when_another_round_is_the_median(self):
        d = Data([row("vt-adaptive", 400, 1, DEAR), row("kernel-200", 800, 1, CHEAP),
                  row("vt-adaptive", 900, 2, CHEAP), row("kernel-200", 800, 2, CHEAP)])
        self.assertAlmostEqual(d.ratio("vt-adaptive", "kernel-200", "repo200", 1000), 900 / 800)

    def test_every_round_in_two_states_is_undecided_within_what_the_host_moves(self):
        # The closed repo200 miss of full-2026-11-28c had this shape: 0.74x with each side in another state.
        d = Data([row("vt-adaptive", 420, 1, DEAR), row("kernel-200", 570, 1, CHEAP)])
        r = d.ratio("vt-adaptive", "kernel-200", "repo200", 1000)
        self.assertTrue(d.state_differed("vt-adaptive", "kernel-200", "repo200", 1000))
        self.assertEqual(judged(d, ["vt-adaptive", "kernel-200"], [("repo200", 1000)], r, 1.0, None), HOST_UNDECIDED)
        # Further from the goal than the host has ever moved a throughput: the host cannot explain it.
        d = Data([row("vt-adaptive", 200, 1, DEAR), row("kernel-200", 570, 1, CHEAP)])
        r = d.ratio("vt-adaptive", "kernel-200", "repo200", 1000)
        self.assertEqual(judged(d, ["vt-adaptive", "kernel-200"], [("repo200", 1000)], r, 1.0, None), "MISSED")
        labels = {t: v for t, _, v in closed(d)}
        self.assertEqual(labels["closed repo200 C=1,000: vt-adaptive ≥ 1.0 × the better kernel pool (kernel-200)"],
                         "MISSED")

    def test_the_same_ratio_measured_in_one_state_is_missed(self):
        d = Data([row("vt-adaptive", 420, 1, CHEAP), row("kernel-200", 570, 1, CHEAP)])
        r = d.ratio("vt-adaptive", "kernel-200", "repo200", 1000)
        self.assertEqual(judged(d, ["vt-adaptive", "kernel-200"], [("repo200", 1000)], r, 1.0, None), "MISSED")

    def test_runs_without_the_probe_compare_every_round_as_before(self):
        d = Data([row("vt-adaptive", 500, 1, None), row("kernel-200", 460, 1, None),
                  row("vt-adaptive", 420, 2, None), row("kernel-200", 760, 2, None)])
        self.assertEqual(len(d.round_ratios("vt-adaptive", "kernel-200", "repo200", 1000)), 2)
        self.assertFalse(d.state_differed("vt-adaptive", "kernel-200", "repo200", 1000))

    def test_the_twins_spread_counts_only_rounds_in_one_state(self):
        d = Data([row("vt-adaptive", 500, 1, CHEAP), row("vt-adaptive-twin", 490, 1, CHEAP),
                  row("vt-adaptive", 500, 2, CHEAP), row("vt-adaptive-twin", 300, 2, DEAR)])
        self.assertAlmostEqual(aa_spread(d, "repo200", 1000), 500 / 490 - 1)

    def test_a_point_measured_in_two_states_gets_the_decisive_rounds_first(self):
        rows = [row("vt-adaptive", 420, 1, DEAR), row("kernel-200", 570, 1, CHEAP),         # 0.74x, two states
                row("vt-adaptive", 95, 1, CHEAP, w="page"), row("kernel-200", 100, 1, CHEAP, w="page")]  # 0.95x
        grid = [("page", 1000), ("repo200", 1000)]
        self.assertEqual(decisive_points(Data(rows), grid, "vt-adaptive", 2, 6), [("repo200", 1000), ("page", 1000)])

    def test_a_shortfall_in_two_states_goes_before_a_lead_in_two_states(self):
        rows = [row("vt-adaptive", 420, 1, DEAR), row("kernel-200", 570, 1, CHEAP),                  # 0.74x, two states
                row("vt-adaptive", 580, 1, CHEAP, w="page"), row("kernel-200", 400, 1, DEAR, w="page"),  # 1.45x, two
                row("vt-adaptive", 95, 1, CHEAP, w="R10ms"), row("kernel-200", 100, 1, CHEAP, w="R10ms")]  # 0.95x
        grid = [("page", 1000), ("R10ms", 1000), ("repo200", 1000)]
        self.assertEqual(decisive_points(Data(rows), grid, "vt-adaptive", 2, 2), [("repo200", 1000), ("R10ms", 1000)])
        self.assertEqual(decisive_points(Data(rows), grid, "vt-adaptive", 2, 6),
                         [("repo200", 1000), ("R10ms", 1000), ("page", 1000)])

    def test_the_losses_table_says_why_a_loss_is_undecided(self):
        d = Data([row("vt-adaptive", 420, 1, DEAR), row("kernel-200", 570, 1, CHEAP)])
        text = "\n".join(losses_first(d))
        self.assertIn("| vt-adaptive | repo200 | 1,000 | 0.74× | kernel-200 | – | undecided (every round in two "
                      "host states) |", text)


if __name__ == "__main__":
    unittest.main()


class OverloadHostStateTest(unittest.TestCase):

    @staticmethod
    def orow(cf, ok_per_s, p99, state):
        return dict(config=cf, workload="repo200", fraction="2.0", reference="kernel-200", capacity_rps="470.0",
                    target_rps="940.0", own_capacity_rps="600.0", ok_per_s=str(ok_per_s), p99_ms=str(p99),
                    losses="9000", s503="0", failed="", duration_s="60", timeout_s="10", sent="56400",
                    handover_ns=state[0] if state else "", handover_ns_after=state[1] if state else "")

    def verdicts(self, rows):
        return {t.split(": ", 1)[1]: v for t, _, v in overload_open_report.targets(rows)}

    def test_two_rows_measured_in_two_states_decide_nothing_within_what_the_host_moves(self):
        # repo200 200 % of full-2026-11-28c: 413.9 vs 469.6/s (0.88x), without the probe.
        label = "vt-adaptive answers in time/s ≥ kernel-200's"
        two = [self.orow("kernel-200", 469.6, 9000, CHEAP), self.orow("vt-adaptive", 413.9, 8000, DEAR)]
        self.assertEqual(self.verdicts(two)[label], HOST_UNDECIDED)
        one = [self.orow("kernel-200", 469.6, 9000, DEAR), self.orow("vt-adaptive", 413.9, 8000, DEAR)]
        self.assertEqual(self.verdicts(one)[label], "MISSED")
        none = [self.orow("kernel-200", 469.6, 9000, None), self.orow("vt-adaptive", 413.9, 8000, None)]
        self.assertEqual(self.verdicts(none)[label], "MISSED")

    def test_the_outcomes_table_shows_each_rows_probes(self):
        rows = [self.orow("kernel-200", 469.6, 9000, CHEAP), self.orow("vt-adaptive", 413.9, 8000, ("44.0", "201.0"))]
        text = section_of(rows)
        self.assertIn("| p50 | p99 | host ns |", text)
        self.assertIn("| 8000 | 44 / 201 * |", text)
        self.assertIn("| 9000 | 45 / 47 |", text)


class OverloadDecisiveHostStateTest(unittest.TestCase):

    def test_an_overload_point_measured_in_two_states_gets_its_rounds_first(self):
        def pt(w, ok_v, ok_k, state_v):
            base = dict(workload=w, fraction="1.3", reference="kernel-200", capacity_rps="470.0", target_rps="611.0",
                        own_capacity_rps="600.0", p99_ms="900", losses="100", s503="0", failed="", duration_s="60",
                        timeout_s="10", sent="36660", connections="6416", cut_off="10")
            return [dict(base, config="kernel-200", ok_per_s=str(ok_k), handover_ns="45.0", handover_ns_after="47.0"),
                    dict(base, config="vt-adaptive", ok_per_s=str(ok_v), p99_ms="700", handover_ns=state_v[0],
                         handover_ns_after=state_v[1])]
        rows = pt("page", 560.0, 600.0, CHEAP) + pt("repo200", 420.0, 570.0, DEAR)  # 0.93x; 0.74x in two states
        self.assertEqual(overload_decisive.decisive_points(rows, 3), [("repo200", 1.3), ("page", 1.3)])


class ReadmeHostStateTest(unittest.TestCase):

    def test_the_readme_table_marks_a_ratio_measured_in_two_states_undecided(self):
        from slingvt_bench.reports.readme_summary import marked
        two = Data([row("vt-adaptive", 420, 1, DEAR), row("kernel-200", 570, 1, CHEAP)])
        one = Data([row("vt-adaptive", 420, 1, CHEAP), row("kernel-200", 570, 1, CHEAP)])
        self.assertEqual(marked(two, "vt-adaptive", "kernel-200", "repo200", 1000, 1.0), "0.74×?")
        self.assertEqual(marked(one, "vt-adaptive", "kernel-200", "repo200", 1000, 1.0), "**0.74×**")
        self.assertEqual(marked(one, "vt-adaptive", "vt-unbounded", "repo200", 1000, 1.0), "–")


class OwnCapacityHostStateTest(unittest.TestCase):
    """The 90 % target divides by the default's closed-model capacity in the overload row's host state."""

    LABEL = "vt-adaptive ≥ 90 % of its own closed-model capacity (at most the offered rate)"

    @staticmethod
    def rows(state):
        over = [OverloadHostStateTest.orow("kernel-200", 449.0, 5100, DEAR),
                dict(OverloadHostStateTest.orow("vt-adaptive", 516.4, 4800, state), own_capacity_rps="865.5",
                     fraction="1.3", target_rps="1033.2")]
        over[0]["fraction"] = "1.3"
        return over

    def verdict(self, over, closed):
        return {t.split(": ", 1)[1]: (m, v) for t, m, v in overload_open_report.targets(over, closed=closed)}[
            self.LABEL]

    def test_the_capacity_in_the_same_state_is_the_measure(self):
        # focused run repo200-states-2026-11-29: auto 865.5/s at about 42 ns, 480.7/s at about 200 ns.
        closed = [row("vt-adaptive", 865.5, 3, CHEAP), row("vt-adaptive", 480.7, 1, DEAR)]
        measured, verdict = self.verdict(self.rows(DEAR), closed)
        self.assertEqual(measured, "516.4 of min(offered 1,033.2, own 480.7 in this host state)/s = 107 %")
        self.assertEqual(verdict, "met")
        measured, verdict = self.verdict(self.rows(DEAR), closed[:1])  # no closed point in the dear state
        self.assertEqual(measured, "516.4 of min(offered 1,033.2, own 865.5 in another host state)/s = 60 %")
        self.assertEqual(verdict, HOST_UNDECIDED)

    def test_a_closed_row_its_clients_bounded_does_not_stand_for_the_capacity(self):
        # full-2026-12-05b, page 130 %: only C=100 (982.3 of C/R 1,000/s) was in the round's state; it judged 218 %.
        bound = dict(row("vt-adaptive", 965.4, 3, DEAR, c=100), little_bound_rps="1000.0")
        closed = [row("vt-adaptive", 865.5, 3, CHEAP), bound]
        measured, verdict = self.verdict(self.rows(DEAR), closed)
        self.assertEqual(measured, "516.4 of min(offered 1,033.2, own 865.5 in another host state)/s = 60 %")
        self.assertEqual(verdict, HOST_UNDECIDED)
        below = dict(bound, little_bound_rps="2000.0")  # half of C/R: the server bounded it
        measured, _ = self.verdict(self.rows(DEAR), [closed[0], below])
        self.assertEqual(measured, "516.4 of min(offered 1,033.2, own 965.4 in this host state)/s = 53 %")

    def test_answering_nine_tenths_of_the_offered_rate_is_met_whatever_state_the_capacity_was_measured_in(self):
        # focused run overload-held-2026-12-02, R100ms 200 %: 3,146.3 of 3,146.4/s offered in time, the capacity of
        # 3,190.3/s measured in another host state: no capacity could raise the share above 100 %.
        over = self.rows(DEAR)
        over[1].update(ok_per_s="1000.0", target_rps="1033.2", own_capacity_rps="1100.0")
        closed = [row("vt-adaptive", 1100.0, 3, CHEAP)]
        measured, verdict = self.verdict(over, closed)
        self.assertEqual(measured, "1,000.0 of min(offered 1,033.2, own 1,100.0 in another host state)/s = 97 %")
        self.assertEqual(verdict, "met")
        over[1]["ok_per_s"] = "900.0"  # 87 % of the offered rate: the state of the capacity may still decide
        self.assertEqual(self.verdict(over, closed)[1], HOST_UNDECIDED)

    def test_without_probes_or_closed_rows_the_recorded_capacity_decides(self):
        closed = [row("vt-adaptive", 865.5, 3, CHEAP)]
        self.assertEqual(self.verdict(self.rows(None), closed)[1], "MISSED")
        self.assertEqual(self.verdict(self.rows(DEAR), None)[1], "MISSED")


class OverloadRoundsInOneStateTest(unittest.TestCase):

    @staticmethod
    def orow(cf, rnd, ok, state):
        return dict(OverloadHostStateTest.orow(cf, ok, 5000, state), round=str(rnd))

    def test_the_round_in_one_state_stands_for_a_point_whose_median_rows_are_in_two(self):
        # focused run repo200-states-2026-11-29, 200 %: only round 1 measured auto and kernel-200 in one state.
        rows = [self.orow("kernel-200", 1, 707.3, CHEAP), self.orow("vt-adaptive", 1, 679.1, CHEAP),
                self.orow("kernel-200", 2, 370.4, DEAR), self.orow("vt-adaptive", 2, 701.7, ("206.8", "28.5")),
                self.orow("kernel-200", 3, 657.9, ("182.1", "41.4")), self.orow("vt-adaptive", 3, 729.6, CHEAP)]
        out = {t.split(": ", 1)[1]: (m, v) for t, m, v in overload_open_report.targets(rows)}
        measured, verdict = out["vt-adaptive answers in time/s ≥ kernel-200's"]
        self.assertEqual(measured, "679.1 vs 707.3/s = 0.96× (round 1: of the rounds in one host state)")
        self.assertEqual(verdict, "MISSED")  # no twin here: nothing to call noise

    def test_the_twins_spread_comes_from_a_round_both_ran_in_one_state(self):
        rows = [self.orow("vt-adaptive", 1, 680.0, CHEAP), self.orow("vt-adaptive-twin", 1, 660.0, CHEAP),
                self.orow("vt-adaptive", 2, 700.0, CHEAP), self.orow("vt-adaptive-twin", 2, 480.0, DEAR),
                self.orow("vt-adaptive", 3, 720.0, CHEAP), self.orow("vt-adaptive-twin", 3, 470.0, DEAR)]
        by = overload_open_report.index(rows)
        self.assertAlmostEqual(overload_open_report.aa_spread(by, "repo200", 2.0, "ok_per_s"), 700 / 480 - 1)
        self.assertAlmostEqual(overload_open_report.aa_spread(by, "repo200", 2.0, "ok_per_s", rows), 680 / 660 - 1)


class OpenModelHostStateTest(unittest.TestCase):

    @staticmethod
    def orow(cf, rnd, p99, state):
        return dict(config=cf, workload="repo200", fraction="0.9", round=str(rnd), reference="kernel-200",
                    capacity_rps="800.0", target_rps="720.0", p99_ms=str(p99), failed="",
                    handover_ns=state[0] if state else "", handover_ns_after=state[1] if state else "")

    LABEL = "open model repo200 at 90 % of kernel-200's capacity: vt-adaptive p99 ≤ kernel-200's"

    def verdict(self, rows):
        return {t: v for t, _, v in open_p99(rows)}[self.LABEL]

    def test_the_p99_target_compares_rounds_in_one_state(self):
        # Round 2: auto in the dear state, where 90 % of a cheap-state capacity is an overload.
        rows = [self.orow("kernel-200", 1, 116.0, CHEAP), self.orow("vt-adaptive", 1, 110.0, CHEAP),
                self.orow("kernel-200", 2, 118.0, CHEAP), self.orow("vt-adaptive", 2, 2100.0, DEAR),
                self.orow("kernel-200", 3, 115.0, CHEAP), self.orow("vt-adaptive", 3, 112.0, CHEAP)]
        self.assertEqual([round(x, 3) for x in open_rounds.p99_ratios(rows, "vt-adaptive", "kernel-200", "repo200",
                                                                      0.9)], [round(116 / 110, 3), round(115 / 112, 3)])
        self.assertEqual(self.verdict(rows), "met")

    def test_every_round_in_two_states_is_undecided_within_what_the_host_moves(self):
        rows = [self.orow("kernel-200", 1, 116.0, CHEAP), self.orow("vt-adaptive", 1, 150.0, DEAR)]
        self.assertTrue(open_rounds.state_differed(rows, "vt-adaptive", "kernel-200", "repo200", 0.9))
        self.assertEqual(self.verdict(rows), HOST_UNDECIDED)
        self.assertEqual(open_rounds.decisive_points(rows + [self.orow("kernel-200", 1, 100.0, CHEAP) | {
            "workload": "page"}, self.orow("vt-adaptive", 1, 95.0, CHEAP) | {"workload": "page"}], 2),
            [("repo200", 0.9), ("page", 0.9)])

    def test_two_states_above_capacity_in_one_of_them_is_undecided_whatever_the_ratio(self):
        # full-2026-11-29b, repo200 at 90 %: auto from the cheap into the dear state, where every closed-model rate of
        # the workload stayed below the offered 720/s; its queue grew (p99 4 s against 116 ms, 0.029x).
        rows = [self.orow("kernel-200", 1, 116.0, CHEAP), self.orow("vt-adaptive", 1, 4000.0, ("47.0", "223.0"))]
        dear = [row("kernel-200", 426, 1, DEAR), row("vt-adaptive", 477, 1, DEAR), row("kernel-200", 800, 1, CHEAP)]
        self.assertTrue(open_rounds.above_capacity(rows, dear, ("vt-adaptive", "kernel-200"), "repo200", 0.9))
        v = {t: x for t, _, x in open_p99(rows, closed=dear)}[self.LABEL]
        self.assertEqual(v, OVER_CAPACITY)
        self.assertEqual(self.verdict(rows), "MISSED", "nothing known of the closed model: judged as before")
        roomy = [row("vt-adaptive", 900, 1, DEAR), row("kernel-200", 800, 1, CHEAP)]
        self.assertEqual({t: x for t, _, x in open_p99(rows, closed=roomy)}[self.LABEL], "MISSED",
                         "720/s was below the dear state's capacity: the product's loss")
        one_state = [self.orow("kernel-200", 1, 116.0, DEAR), self.orow("vt-adaptive", 1, 4000.0, DEAR)]
        self.assertEqual({t: x for t, _, x in open_p99(one_state, closed=dear)}[self.LABEL], "MISSED",
                         "both in the dear state saw the same overload")
        # A round in one state can decide it: the point gets the decisive rounds first.
        other = [self.orow("kernel-200", 1, 100.0, CHEAP) | {"workload": "page"},
                 self.orow("vt-adaptive", 1, 98.0, CHEAP) | {"workload": "page"}]
        self.assertEqual(open_rounds.decisive_points(rows + other, 1, closed=dear), [("repo200", 0.9)])
        self.assertEqual(open_rounds.decisive_points(rows + other, 1), [("page", 0.9)])

    def test_above_capacity_is_undecided_on_either_side_and_counts_only_the_servers_rates(self):
        # kernel-200 moved into the dear state and queued: a win of 12x that the host state made, as undecided.
        rows = [self.orow("kernel-200", 1, 1400.0, ("47.0", "223.0")), self.orow("vt-adaptive", 1, 116.0, CHEAP)]
        dear = [row("kernel-200", 426, 1, DEAR), row("vt-adaptive", 477, 1, DEAR)]
        self.assertEqual({t: x for t, _, x in open_p99(rows, closed=dear)}[self.LABEL], OVER_CAPACITY)
        # 100 a second at C = 100 of R1s-like requests was the client's bound (C/R), not the dear state's capacity;
        # a failed closed row measured nothing; a failed open round says nothing of its state.
        bound = [row("kernel-200", 99, 1, DEAR) | {"little_bound_rps": "100.0"},
                 row("vt-adaptive", 300, 1, DEAR) | {"failed": "down"}]
        self.assertFalse(open_rounds.above_capacity(rows, bound, ("vt-adaptive", "kernel-200"), "repo200", 0.9))
        self.assertTrue(open_rounds.above_capacity(rows, bound[:1] + [row("kernel-200", 99, 1, DEAR)],
                                                   ("vt-adaptive", "kernel-200"), "repo200", 0.9))
        gone = [dict(r, failed="oha exited 1") if r["config"] == "kernel-200" else r for r in rows]
        self.assertFalse(open_rounds.above_capacity(gone, dear, ("vt-adaptive", "kernel-200"), "repo200", 0.9))
