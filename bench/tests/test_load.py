"""wrk's steady-state rate: the ramp, the cut last second, and failed answers left out of throughput."""
import unittest

from slingvt_bench.load.runner import steady_rate


def run(per_second, ok_per_second=None, started=100):
    res = {"started": started, "per_second": {str(started + t): n for t, n in per_second.items()}}
    if ok_per_second is not None:
        res["ok_per_second"] = {str(started + t): n for t, n in ok_per_second.items()}
    return res


class SteadyRateTest(unittest.TestCase):

    def test_window_starts_once_every_connection_had_an_answer_and_drops_the_last_second(self):
        # 100 connections: 50 answers in second 0, 60 in second 1 (110 >= 100), then 100/s.
        res = run({0: 50, 1: 60, **{t: 100 for t in range(2, 20)}})
        rate, window, ramp = steady_rate(res, 100, 10, 20)
        self.assertEqual(ramp, 2)
        self.assertEqual(window, 17)  # seconds 2..18; 19 is cut
        self.assertEqual(rate, 100.0)

    def test_failed_answers_count_for_the_ramp_but_not_for_throughput(self):
        res = run({t: 100 for t in range(20)}, ok_per_second={t: 40 for t in range(20)})
        rate, _, _ = steady_rate(res, 10, 10, 20)
        self.assertEqual(rate, 40.0)

    def test_too_short_a_window_gives_no_rate(self):
        res = run({t: 10 for t in range(6)})
        rate, window, _ = steady_rate(res, 1000, 1000, 6)
        self.assertEqual(rate, "")
        self.assertLess(window, 5)


if __name__ == "__main__":
    unittest.main()
