"""The overload's decisive points (issue #27: at least 3 rounds at decisive points): which points more rounds may
settle, and that the phase measures only those in its extra rounds."""
import contextlib
import os
import re
import tempfile
import unittest

from slingvt_bench.core import overload_rows
from slingvt_bench.load import overload_oha as ov
from slingvt_bench.plan import overload_phase
from slingvt_bench.reports import overload_section as rep
from slingvt_bench.verdicts import overload, overload_decisive as dec

from .test_overload_open import FakeInstance, oha_db, phase_patched


def row(cf, w, fr, ok_per_s, p99, losses=100, own=1000.0, rate=None, connections=None, failed=""):
    rate = rate if rate is not None else 200 * fr
    return dict(config=cf, workload=w, fraction=str(fr), target_rps=str(rate), own_capacity_rps=str(own),
                ok_per_s=str(ok_per_s), p99_ms=str(p99), losses=str(losses), timeout_s="10", failed=failed,
                connections=str(connections if connections is not None else ov.connections(rate, 10, 10 ** 9)))


def point(w, fr, auto, twin, kernel, **kw):
    """auto, its twin and kernel-200 at one overload point: (answers in time /s, p99 ms) each."""
    return [row("vt-adaptive", w, fr, *auto, **kw), row("vt-adaptive-twin", w, fr, *twin, **kw),
            row("kernel-200", w, fr, *kernel, **kw)]


class DecisivePointsTest(unittest.TestCase):

    def test_a_point_within_twice_the_twins_spread_of_a_goal_is_decisive_on_either_side_closest_first(self):
        rows = (
            # 63 % of its own capacity (goal 90 %: 30 % short), twins 17 % apart: within twice the spread.
            point("repo200", 1.3, (394.5, 4000), (473.5, 4100), (300.0, 5000), own=626.2, rate=700)
            # 91 % of its own capacity, inside the twins' 8 %: undecided, 1 % from its goal.
            + point("page", 1.3, (1700.0, 900), (1840.0, 900), (1500.0, 950), own=1868.0, rate=1900)
            # Met, but narrowly: p99 5 % below kernel-200's, twins 1 % apart; another round may turn it.
            + point("R10ms", 1.3, (2600.0, 950), (2600.0, 960), (2000.0, 1000), losses=0, own=2600.0, rate=2600)
            # Every request in time, p99 20 % above kernel-200's with twins 1 % apart: missed by more than any round
            # will move.
            + point("R100ms", 1.3, (2600.0, 1200), (2600.0, 1210), (2000.0, 1000), losses=0, own=2600.0, rate=2600))
        self.assertEqual(dec.decisive_points(rows, 4), [("page", 1.3), ("R10ms", 1.3), ("repo200", 1.3)])
        self.assertEqual(dec.decisive_points(rows, 1), [("page", 1.3)])
        self.assertEqual(dec.decisive_points(rows, 0), [])

    def test_the_clients_connection_cap_a_failed_point_and_a_throughput_met_without_losses_are_not_decisive(self):
        # 88 % of its own capacity, 2 % short of the goal: decisive, were the client not short of connections
        # (8,000 for 7,400/s x 10.5 s): another round measures the same cap.
        capped = point("R10ms", 2.0, (3270.0, 900), (3300.0, 900), (3000.0, 9500), own=3716.7, rate=7400,
                       connections=8000)
        self.assertEqual(dec.decisive_points([dict(r, connections="77700") for r in capped], 3), [("R10ms", 2.0)])
        # Answered everything offered in time, 2 % ahead of the pool's answers (twins 1 % apart, inside the margin):
        # no round can do better; p99 met by far.
        lost_nothing = point("R1s", 1.3, (260.0, 1000), (257.5, 1000), (255.0, 9000), losses=0, own=1900.0,
                             rate=260)
        self.assertEqual(dec.decisive_points([dict(r, losses="3") for r in lost_nothing], 3), [("R1s", 1.3)])
        failed = [row("vt-adaptive", "page", 2.0, 900.0, 900, failed="oha exited 2"),
                  row("kernel-200", "page", 2.0, 880.0, 900), row("vt-adaptive-twin", "page", 2.0, 850.0, 900)]
        self.assertEqual(dec.decisive_points([dict(r, failed="") for r in failed], 3), [("page", 2.0)])
        self.assertEqual(dec.decisive_points(capped + lost_nothing + failed, 3), [])

    def test_a_reference_out_of_connections_leaves_the_default_its_own_capacity_target(self):
        # full-2026-12-05, page 130 %: vt-adaptive 86 % of its own capacity (goal 90 %) with connections to spare,
        # kernel-200's all held. The comparisons with kernel-200 would measure its client's cap again; the share of
        # its own capacity involves no kernel-200 and gets its rounds.
        rows = point("page", 1.3, (2085.5, 2352.7), (2064.7, 1144.7), (1599.0, 1969.1), own=2465.3, rate=2436.1,
                     connections=8000)
        held = {"vt-adaptive": "4592", "vt-adaptive-twin": "4619", "kernel-200": "9018"}
        rows = [dict(r, held_median=held[r["config"]], cut_off="2600") for r in rows]
        self.assertEqual(dec.decisive_points(rows, 3), [("page", 1.3)])
        # At its own capacity, the same point leaves only the comparisons with the capped kernel-200: none decisive.
        at_own = [dict(r, ok_per_s="2436.1", losses="0") if r["config"] != "kernel-200" else r for r in rows]
        self.assertEqual(dec.decisive_points(at_own, 3), [])
        # Its own client capped as well: nothing more rounds could settle.
        both = [dict(r, held_median="7990") for r in rows]
        self.assertEqual(dec.decisive_points(both, 3), [])

    def test_a_p99_with_both_at_the_clients_timeout_is_not_decisive(self):
        # Every request in time (no throughput round can do better) but p99: 9,930 vs 9,900 ms, 0.3 % behind with
        # twins 1 % apart. Both at the timeout (overload_open_report.at_timeout): another round measures it again.
        at = point("R100ms", 2.0, (2600.0, 9930), (2600.0, 9840), (1000.0, 9900), losses=0, own=2600.0, rate=2600)
        self.assertEqual(dec.decisive_points(at, 3), [])
        below = point("R100ms", 2.0, (2600.0, 9930), (2600.0, 9840), (1000.0, 9600), losses=0, own=2600.0,
                      rate=2600)
        self.assertEqual(dec.decisive_points(below, 3), [("R100ms", 2.0)])

    def test_connection_bound_compares_the_connections_with_the_rate_times_the_timeout(self):
        self.assertTrue(overload.connection_bound(dict(target_rps="7400", timeout_s="10", connections="8000")))
        self.assertFalse(overload.connection_bound(dict(target_rps="434", timeout_s="10", connections="4557")))
        # The row keeps 434.1 for an exact 434.0476/s: 4,558 connections asked for by the rounded rate, 4,557 given.
        self.assertFalse(overload.connection_bound(dict(target_rps="434.1", timeout_s="10",
                                                   connections=str(ov.connections(434.0476, 10, 10 ** 6)))))
        self.assertFalse(overload.connection_bound(dict(target_rps="434", timeout_s="10")))

    def test_a_client_short_of_connections_by_the_rate_that_kept_some_free_was_not_capped(self):
        short = dict(target_rps="1087.8", timeout_s="10", connections="8000")
        # full-2026-11-28b, repo200 at 200 %: auto's client ended with 5,852 of 8,000 open, R10ms at 200 % with 7,918
        self.assertFalse(overload.connection_bound(dict(short, cut_off="5852")))
        self.assertTrue(overload.connection_bound(dict(short, cut_off="7918")))
        self.assertTrue(overload.connection_bound(dict(short, cut_off="7600")))
        self.assertFalse(overload.connection_bound(dict(short, cut_off="7599")))
        self.assertFalse(overload.connection_bound(dict(target_rps="434", timeout_s="10", connections="4557",
                                                   cut_off="4557")))

    def test_a_client_whose_connections_the_server_held_through_the_point_was_capped_whatever_the_end(self):
        short = dict(target_rps="3882.6", timeout_s="10", connections="8000")
        # full-2026-12-02, R100ms at 200 %: auto held a median of 8,000 of 8,000 in the samples, 6,771 open at the end.
        self.assertTrue(overload.connection_bound(dict(short, held_median="8000", cut_off="6771")))
        self.assertTrue(overload.connection_bound(dict(short, held_median="7600", cut_off="0")))
        self.assertFalse(overload.connection_bound(dict(short, held_median="7599", cut_off="7599")))
        # full-2026-11-28b, repo200 at 200 %: a median of 6,266 held, 5,852 open at the end: connections to spare.
        self.assertFalse(overload.connection_bound(dict(short, held_median="6266", cut_off="5852")))
        self.assertTrue(overload.connection_bound(dict(short, held_median="6266", cut_off="7918")), "either shows the cap")
        self.assertTrue(overload.connection_bound(dict(short, held_median="7918")))
        self.assertFalse(overload.connection_bound(dict(short, held_median="5000")))
        self.assertFalse(overload.connection_bound(dict(target_rps="434", timeout_s="10", connections="4557",
                                                   held_median="4557")), "enough connections for the rate")


class DecisiveRoundsInPhaseTest(unittest.TestCase):

    def drive(self, answers, workloads=("R1s", "repo200"), earlier=(), points=3):
        """The phase with decisive rounds to 3 on kernel-200, auto and its twin at 100/s capacity each; answers:
        oha run name (config-workload-percent) -> answers in time of the 10 s run (default: all offered, p99 0.5 s,
        kernel-200's 0.9 s). Returns (oha runs in order, overload.csv rows)."""
        class Args:
            quick, oha, append, overload_duration, overload_timeout, fd_limit = False, "oha", None, 10, 10, 10 ** 6
            overload_rounds, overload_decisive_rounds, overload_decisive_points = 1, 3, points
        closed = [dict(config=cf, workload=w, rps_steady="100", rps="100")
                  for w in workloads for cf in ("kernel-200", "vt-adaptive", "vt-adaptive-twin")]
        driven = []

        def oha(args, cmd, duration, out_json, usage=None):
            name = re.sub(r"-r\d+$", "", out_json.split("oha-overload-")[1][:-len(".json")])
            driven.append(out_json.split("oha-overload-")[1])
            sent = int(cmd[cmd.index("-q") + 1].split(".")[0]) * 10
            n = answers.get(name, sent)
            took = 0.9 if name.startswith("kernel") else 0.5
            oha_db(cmd[cmd.index("--db-url") + 1], [(200, i * 0.01, i * 0.01 + took, took) for i in range(n)])
            return {"statusCodeDistribution": {"200": n}, "errorDistribution": {"timeout": sent - n}}
        counts = iter([dict(admitted=10, rejected=0, completed=9, inFlight=1, queued=0)] * 200)
        with tempfile.TemporaryDirectory() as out, contextlib.ExitStack() as stack:
            phase_patched(oha, counts, stack)
            if earlier:
                overload_rows.write_csv(os.path.join(out, "overload.csv"), list(earlier))
            overload_phase.run(Args, [FakeInstance(c) for c in ("kernel-200", "vt-adaptive", "vt-adaptive-twin")],
                               dict(workloads=list(workloads), pause=0), closed, out, out)
            return driven, overload_rows.read_csv(os.path.join(out, "overload.csv"))

    # repo200 at 130 %: auto answers 60/s in time against the pool's 70 (its twin 65): 0.86x, decisive.
    REPO200_CLOSE = {"kernel-200-repo200-130": 700, "vt-adaptive-repo200-130": 600,
                     "vt-adaptive-twin-repo200-130": 650}

    def test_rounds_two_and_three_measure_only_the_decisive_points(self):
        driven, rows = self.drive(self.REPO200_CLOSE)
        # Round 1: 2 workloads x 2 rates x 3 configurations; rounds 2 and 3: repo200 130 % only, every configuration.
        self.assertEqual(len(driven), 12 + 2 * 3)
        later = sorted(f for f in driven if "-r2" in f or "-r3" in f)
        self.assertEqual(later, sorted(f"{cf}-repo200-130-r{r}.json" for r in (2, 3)
                                       for cf in ("kernel-200", "vt-adaptive", "vt-adaptive-twin")))
        self.assertEqual(sorted({(r["workload"], r["fraction"]) for r in rows if r["round"] != "1"}),
                         [("repo200", "1.3")])

    def test_no_decisive_point_no_extra_round(self):
        # repo200 at 130 %: auto 30/s in time against the pool's 70: far from its goal, no round will change it.
        driven, rows = self.drive({"kernel-200-repo200-130": 700, "vt-adaptive-repo200-130": 300,
                                   "vt-adaptive-twin-repo200-130": 310})
        self.assertEqual(len(driven), 12)
        self.assertEqual({r["round"] for r in rows}, {"1"})

    def test_an_earlier_runs_rows_of_a_workload_not_measured_again_are_not_chosen(self):
        # --append: overload.csv already holds a page point closer to its goal (0.94x) than this invocation's repo200
        # at 130 % (0.86x); with one decisive point allowed, repo200 gets it.
        earlier = [dict(config=cf, workload="page", fraction="1.3", round="1", target_rps="130", timeout_s="10",
                        connections="1365", own_capacity_rps="100", ok_per_s=str(ok), p99_ms="500", losses="600")
                   for cf, ok in (("kernel-200", 70), ("vt-adaptive", 66), ("vt-adaptive-twin", 65))]
        driven, rows = self.drive(self.REPO200_CLOSE, workloads=("repo200",), earlier=earlier, points=1)
        self.assertEqual(len(driven), 6 + 2 * 3)
        self.assertEqual(len([r for r in rows if r["workload"] == "page"]), 3)


class RoundsNoteTest(unittest.TestCase):

    def test_the_report_names_the_points_that_had_more_rounds(self):
        rows = [dict(config="vt-adaptive", workload="repo200", fraction="1.3", round=str(r)) for r in (1, 2, 3)]
        rows.append(dict(config="vt-adaptive", workload="R1s", fraction="1.3", round="1"))
        note = rep.rounds_note(rows)
        self.assertIn("decisive points", note)
        self.assertIn("repo200 130 % 3; 1 elsewhere", note)
        self.assertIn("3 rounds per point", rep.rounds_note(rows[:3]))
        self.assertEqual(rep.rounds_note(rows[3:]), "")
        # --overload-rounds 2, decisive rounds 3: the point with the third round is named, 2 elsewhere.
        two = rows[:3] + [dict(rows[3], round="1"), dict(rows[3], round="2")]
        self.assertIn("repo200 130 % 3; 2 elsewhere", rep.rounds_note(two))


if __name__ == "__main__":
    unittest.main()
