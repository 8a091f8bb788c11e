"""The server's side of an overload point (overload_watch): admission samples, CPU per completed request, and the
closed-model CPU per answer it is compared with."""
import os
import unittest
from unittest import mock

from slingvt_bench.samples import overload_watch as watch


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


class WatchTest(unittest.TestCase):

    def test_samples_count_as_own_reads_and_summarise_the_admission_and_the_cpu(self):
        clock, cpu = Clock(), iter([10.0, 13.0, 16.5, 22.0])
        reads = iter([dict(concurrencyLimit=200, inFlight=180, queued=0, completed=100, newestFirst=False), None,
                      dict(concurrencyLimit=44, inFlight=45, queued=7900, completed=900, newestFirst=True,
                           scheduler=dict(mountedVirtualThreadCount=2, queuedVirtualThreadCount=31))])
        with mock.patch.object(watch, "proc_cpu_seconds", side_effect=lambda pid: next(cpu)):
            w = watch.Watch(os.getpid(), lambda: next(reads), period_s=3600, clock=clock).start()
            clock.t = 102.0
            w.sample()
            w.sample()  # unreadable: no sample, not one of the benchmark's requests
            clock.t = 104.0
            w.sample()
            clock.t = 110.0
            w.finish()
        self.assertEqual(w.reads, 2)
        self.assertEqual([(s["second"], s["limit"], s["cpu_pct"], s["newest_first"]) for s in w.samples],
                         [(2.0, 200, 150.0, 0), (4.0, 44, 175.0, 1)])
        self.assertEqual([(s["carriers_mounted"], s["carriers_queued"]) for s in w.samples], [("", ""), (2, 31)],
                         "the scheduler's counts where the status has them (JDK 24+), blank where not")
        self.assertEqual(w.cpu_s, 12.0)
        out = watch.summary(w, completed=4000)
        self.assertEqual(out["cpu_pct"], 120.0)  # 12 s of CPU in 10 s
        self.assertEqual(out["cpu_ms_per_completed"], 3.0)
        self.assertEqual((out["limit_min"], out["limit_max"], out["queued_max"]), (44, 200, 7900))
        self.assertEqual(out["in_flight_median"], 112)
        # Held: in flight and queued together, one client connection each (180 and 7,945: the median of two).
        self.assertEqual(out["held_median"], 4062)
        self.assertEqual(out["watch_samples"], 2)

    def test_without_counters_only_the_cpu_is_read(self):
        cpu = iter([1.0, 3.0])
        with mock.patch.object(watch, "proc_cpu_seconds", side_effect=lambda pid: next(cpu)):
            clock = Clock()
            w = watch.Watch(1, None, clock=clock).start()
            clock.t = 104.0
            w.finish()
        out = watch.summary(w, completed=0)
        self.assertEqual((w.reads, w.samples, out["cpu_pct"]), (0, [], 50.0))
        self.assertEqual((out["cpu_ms_per_completed"], out["limit_min"], out["queued_max"], out["held_median"]),
                         ("", "", "", ""))

    def test_an_unreadable_process_leaves_the_cpu_blank(self):
        with mock.patch.object(watch, "proc_cpu_seconds", return_value=None):
            w = watch.Watch(1).start()
            w.finish()
        self.assertEqual(watch.summary(w, completed=10)["cpu_ms_per_completed"], "")

    def test_closed_cpu_is_taken_at_the_capacity_point_over_the_whole_run(self):
        rows = [dict(config="vt-adaptive", workload="repo200", rps_steady="662.5", rps="652.0", cpu_pct="189.1"),
                dict(config="vt-adaptive", workload="repo200", rps_steady="414.1", rps="430.9", cpu_pct="188.2"),
                dict(config="kernel-200", workload="repo200", rps_steady="700", rps="700", cpu_pct="100"),
                dict(config="vt-adaptive", workload="page", rps_steady="2304", rps="2300", cpu_pct="180")]
        self.assertEqual(watch.closed_cpu_ms(rows, "vt-adaptive", "repo200"), 2.9)  # 10 x 189.1 / 652.0
        self.assertIsNone(watch.closed_cpu_ms(rows, "vt-unbounded", "repo200"))
        self.assertIsNone(watch.closed_cpu_ms([dict(config="a", workload="w", rps="5", cpu_pct="")], "a", "w"))


if __name__ == "__main__":
    unittest.main()
