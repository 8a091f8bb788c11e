"""A configuration that fails stays in the grid: its points are "failed", with the reason, and missed."""
import os
import tempfile
import unittest
from unittest import mock

from slingvt_bench.core.common import BenchError
from slingvt_bench.core.rows import read_csv
from slingvt_bench.load import points
from slingvt_bench.plan import cli, closed_phase
from slingvt_bench.reports.report import markdown
from slingvt_bench.verdicts.closed import targets
from slingvt_bench.verdicts.ratios import Data


class Proc:
    def __init__(self):
        self.returncode = None

    def poll(self):
        return self.returncode


class FakeInstance:
    """An instance whose JVM can crash and whose restart succeeds or not."""

    def __init__(self, name, home, restart_ok=True):
        self.name, self.home, self.restart_ok = name, home, restart_ok
        self.info = {"config": name, "port": 1, "home": home}
        self.proc, self.pid, self.url, self.port, self.starts = Proc(), 1, "http://127.0.0.1:1", 1, 0

    def start(self):
        self.starts += 1
        if not self.restart_ok:
            raise BenchError(f"{self.name}: no answer within 300 s")
        self.proc = Proc()

    def stop(self):
        pass

    def check_alive(self):
        if self.proc.poll() is not None:
            raise BenchError(f"{self.name}: Sling exited (code 137)")


class Args:
    duration, warmup, rounds, decisive_rounds = 20, 0, 1, 1


GRID = [("R1s", 1000), ("R1s", 4000), ("R1s", 8000)]


def run(restart_ok):
    """kernel-200 answers 100/s everywhere; vt-unbounded 300/s, but its JVM dies during C=1,000."""
    with tempfile.TemporaryDirectory() as out:
        live = [FakeInstance("kernel-200", os.path.join(out, "k")),
                FakeInstance("vt-unbounded", os.path.join(out, "v"), restart_ok)]

        def measure(args, inst, wname, c, pdir, duration, others, rnd):
            if inst.name == "vt-unbounded" and c == 1000:
                inst.proc.returncode = 137
                raise BenchError("wrk wrote no summary")
            thr = "100.0" if inst.name == "kernel-200" else "300.0"
            return dict(config=inst.name, workload=wname, r_ms=1000, concurrency=c, round=rnd, rps_steady=thr,
                        rps=thr)
        rows, meta = [], {}
        with mock.patch.object(closed_phase, "measure_point", measure), mock.patch.object(closed_phase.time, "sleep"), \
                mock.patch.object(closed_phase, "log"), mock.patch.object(points, "log"):
            closed_phase.run_rounds(Args, dict(pause=0), live, rows, [], out, out, meta, 0,
                           [(0, i, p) for i, p in enumerate(GRID)])
        return read_csv(os.path.join(out, "results.csv")), live[1]


class FailedConfigurationTest(unittest.TestCase):

    def test_a_configuration_that_cannot_restart_keeps_its_points_as_failed(self):
        rows, vt = run(restart_ok=False)
        mine = [(r["concurrency"], r["failed"]) for r in rows if r["config"] == "vt-unbounded"]
        self.assertEqual([c for c, _ in mine], ["1000", "4000", "8000"])  # none dropped
        self.assertIn("wrk wrote no summary", mine[0][1])
        self.assertTrue(all("restart failed" in why or "no restart left" in why for _, why in mine[1:]), mine)
        self.assertEqual(vt.info["restarts"], 2)  # bounded: not once per point
        d = Data(rows)
        out = {t: (m, v) for t, m, v in targets(d)}
        measured, verdict = out["every point: vt-unbounded ≥ 1.0 × kernel-200"]
        self.assertTrue(measured.startswith("3 points: 0 met, 3 missed"), measured)
        self.assertTrue(verdict.startswith("MISSED"), verdict)
        self.assertIn("R1s C=8000 (failed: vt-unbounded)", verdict)
        text = markdown(d, dict(instances=[vt.info]))
        self.assertIn("| R1s | 8,000 | – | 100 | failed |", text)
        self.assertIn("| vt-unbounded | R1s | 1,000 | 1 | wrk wrote no summary |", text)

    def test_a_crashed_configuration_is_restarted_for_its_next_point(self):
        rows, vt = run(restart_ok=True)
        mine = {r["concurrency"]: (r["failed"], r["rps_steady"]) for r in rows if r["config"] == "vt-unbounded"}
        self.assertEqual(mine["1000"], ("wrk wrote no summary", ""))
        self.assertEqual(mine["4000"], ("", "300.0"))
        self.assertEqual(mine["8000"], ("", "300.0"))
        self.assertEqual((vt.info["restarts"], vt.starts), (1, 1))
        self.assertNotIn("error", vt.info)
        out = {t: (m, v) for t, m, v in targets(Data(rows))}
        measured, verdict = out["every point: vt-unbounded ≥ 1.0 × kernel-200"]
        self.assertTrue(measured.startswith("3 points: 2 met, 1 missed"), measured)
        self.assertEqual(verdict, "MISSED: R1s C=1000 (failed: vt-unbounded)")

    def test_a_failed_round_makes_every_verdict_of_its_point_missed(self):
        def r(cf, c, thr, cpu, failed=""):
            return dict(config=cf, workload="R1s", concurrency=str(c), round="1", rps_steady=thr, rps=thr,
                        cpu_pct=cpu, threads_max="30" if thr else "", failed=failed)
        rows = [r("vt-unbounded", 1000, "900", "100"), r("vt-unbounded", 8000, "", "", failed="Sling exited"),
                r("vt-no-detector", 1000, "900", "100")]
        out = {t: v for t, _, v in targets(Data(rows), dict(machine=dict(nproc=2)))}
        for label in ("R=1 s: vt-unbounded CPU per request at C=8,000 within 10 % of C=1,000",
                      "C=8,000, R=1 s: vt-unbounded ≥ 90 % of min(C/R, X_cpu)",
                      "under load, virtual mode: ≤ 60 live OS threads (vt-unbounded, every point)"):
            self.assertEqual(out[label], "MISSED (failed: vt-unbounded R1s C=8000)", label)


if __name__ == "__main__":
    unittest.main()


class ComparedOnlyTest(unittest.TestCase):

    def test_a_decisive_round_measures_only_the_configurations_its_point_compares(self):
        with tempfile.TemporaryDirectory() as out:
            live = [FakeInstance(n, os.path.join(out, n)) for n in ("kernel-200", "vt-unbounded", "vt-adaptive")]
            measured = []

            def measure(args, inst, wname, c, pdir, duration, others, rnd):
                measured.append((inst.name, wname, c))
                return dict(config=inst.name, workload=wname, r_ms=100, concurrency=c, round=rnd, rps_steady="1.0",
                            rps="1.0")
            with mock.patch.object(closed_phase, "measure_point", measure), mock.patch.object(closed_phase.time, "sleep"), \
                    mock.patch.object(closed_phase, "log"), mock.patch.object(points, "log"):
                closed_phase.run_rounds(Args, dict(pause=0), live, [], [], out, out, {}, 0,
                               [(1, 0, ("repo200", 100)), (1, 1, ("R1s", 1000))],
                               compared=lambda w, c: ["kernel-200", "vt-adaptive"] + (["vt-unbounded"] if w == "R1s"
                                                                                      else []))
        self.assertEqual(sorted(n for n, w, _ in measured if w == "repo200"), ["kernel-200", "vt-adaptive"])
        self.assertEqual(sorted(n for n, w, _ in measured if w == "R1s"), ["kernel-200", "vt-adaptive", "vt-unbounded"])
