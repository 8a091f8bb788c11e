"""The run's time estimate: counted per phase from the plan, with the costs per measurement of a real full run."""
import argparse
import csv
import json
import os
import unittest

from slingvt_bench.core import estimate, overload_rows
from slingvt_bench.plan import cli
from slingvt_bench.plan.plans import FULL

RUN = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "benchmarks", "full-2026-12-06b")


def rows(name):
    with open(os.path.join(RUN, name), newline="") as f:
        return list(csv.DictReader(f))


def full_args(**over):
    a = dict(quick=False, only_overload=False, no_open_model=False, no_overload=False, configs=None,
             warmup=FULL["warmup"], duration=FULL["duration"], open_decisive_rounds=FULL["open_decisive_rounds"],
             open_decisive_points=FULL["open_decisive_points"], overload_rounds=1,
             overload_decisive_rounds=FULL["overload_decisive_rounds"],
             overload_decisive_points=FULL["overload_decisive_points"], overload_duration=overload_rows.DURATION_S)
    a.update(over)
    return argparse.Namespace(**a)


class EstimateTest(unittest.TestCase):

    def test_the_costs_give_back_the_elapsed_time_of_the_run_they_come_from(self):
        # full-2026-12-06b's own counts: what it measured, not what it might have (the costs were taken from
        # full-2026-11-28b, which had no host probe; this run with the probe comes within 4 %).
        meta = json.load(open(os.path.join(RUN, "meta.json")))
        closed, opened, over = len(rows("results.csv")), len(rows("openmodel.csv")), len(rows("overload.csv"))
        self.assertEqual((closed, opened, over), (166, 100, 48))
        total = (estimate.start_seconds(5, 60) + estimate.closed_seconds(closed, 12)
                 + estimate.open_seconds(opened, 15) + estimate.overload_seconds(over, 60))
        self.assertAlmostEqual(total / meta["elapsed_s"], 1.0, delta=0.04)

    def test_the_confined_costs_give_back_the_elapsed_time_of_the_confined_run_they_come_from(self):
        # full-confined-2026-12-07b: each instance in a cgroup CPU set of one CPU, the load generator on the other.
        run = os.path.join(os.path.dirname(RUN), "full-confined-2026-12-07b")
        count = {n: len(list(csv.DictReader(open(os.path.join(run, n), newline=""))))
                 for n in ("results.csv", "openmodel.csv", "overload.csv")}
        meta = json.load(open(os.path.join(run, "meta.json")))
        self.assertEqual(tuple(count.values()), (131, 86, 46))
        total = (estimate.start_seconds(5, 60, confined=True) + estimate.closed_seconds(count["results.csv"], 12)
                 + estimate.open_seconds(count["openmodel.csv"], 15)
                 + estimate.overload_seconds(count["overload.csv"], 30, confined=True))
        self.assertAlmostEqual(total / meta["elapsed_s"], 1.0, delta=0.04)
        # what the same counts cost unconfined undercounts it (the estimate said 2 h 0 min; the confined runs took
        # 2 h 6 min here and 2 h 12 min in full-confined-2026-12-07)
        plain = (estimate.start_seconds(5, 60) + estimate.closed_seconds(count["results.csv"], 12)
                 + estimate.open_seconds(count["openmodel.csv"], 15)
                 + estimate.overload_seconds(count["overload.csv"], 30))
        self.assertLess(plain / meta["elapsed_s"], 0.95)
        self.assertLess(abs(total / meta["elapsed_s"] - 1), abs(plain / meta["elapsed_s"] - 1))

    def test_the_full_plan_confined_counts_its_slower_starts_and_drains(self):
        text = cli.run_estimate(full_args(confine=dict(cpus=[0], quota=None)), dict(FULL), 105 + 2 * 3 * 5)
        # full-confined-2026-12-07 and -07b ran this plan in 2 h 12 min and 2 h 6 min; the unconfined costs said 2 h 0 min
        self.assertEqual(text, "about 2 h 10 min at most (start and warm-up 10 min, closed model 1 h 1 min, "
                               "open model 26 min, overload 34 min)")
        # CPUs pinned without a cgroup (taskset-style, on 4 or more CPUs) are not confined
        pinned = cli.run_estimate(full_args(server_cpus={0, 1}, confine=None), dict(FULL), 105 + 2 * 3 * 5)
        self.assertTrue(pinned.startswith("about 2 h 0 min at most"), pinned)

    def test_the_full_plan_counts_every_phase_and_every_decisive_round_it_may_need(self):
        text = cli.run_estimate(full_args(), dict(FULL), 105 + 2 * 3 * 5)
        # closed (105 + 2 rounds x 3 decisive points x 5 configurations) x 27 s (5 workloads x 4 C and mixed at
        # C = 1,000), open model (44 + 2 rounds x 3 compared configurations x 7 points) x 18 s, overload (33 + 2 x 3
        # x 2) x 35 s (the mixed workload at 130 % with unbounded too), the host probe and the drains before and after
        # included in each: it fits one sitting of about two hours (bench/METHOD.md, "One sitting")
        self.assertEqual(text, "about 2 h 0 min at most (start and warm-up 7 min, closed model 1 h 1 min, "
                               "open model 26 min, overload 26 min)")

    def test_phases_left_out_are_not_counted(self):
        text = cli.run_estimate(full_args(no_open_model=True, no_overload=True), dict(FULL), 100)
        self.assertEqual(text, "about 52 min at most (start and warm-up 7 min, closed model 45 min)")

    def test_minutes(self):
        self.assertEqual(estimate.minutes(40), "40 s")
        self.assertEqual(estimate.minutes(3850), "1 h 4 min")
        self.assertEqual(estimate.minutes(3000), "50 min")
        self.assertEqual(estimate.minutes(9229), "2 h 34 min")


if __name__ == "__main__":
    unittest.main()
