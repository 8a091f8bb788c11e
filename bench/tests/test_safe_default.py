"""The safe default's targets: judged against the better kernel pool and unbounded, undecided inside the twin's
spread, no 503 where kernel-200 answered everything, open-model p99."""
import unittest

from slingvt_bench.data import Data
from slingvt_bench.safe_default import applies, closed, open_p99


def row(config, thr, w="R1s", c=1000, non2xx=0, errors=0):
    return dict(config=config, workload=w, concurrency=str(c), round="1", rps_steady=str(thr), rps="",
                non2xx=str(non2xx), socket_errors=str(errors))


def verdicts(targets):
    return {t: v for t, _, v in targets}


class SafeDefaultTest(unittest.TestCase):

    def test_judged_against_the_better_pool_and_unbounded_with_the_twin_as_noise(self):
        d = Data([row("kernel-200", 100), row("kernel-1000", 400), row("vt-unbounded", 500),
                  row("vt-adaptive", 420), row("vt-adaptive-twin", 400)])
        self.assertTrue(applies(d))
        v = verdicts(closed(d))
        # 420 / 400 (kernel-1000, the better pool) = 1.05, the twins differ by 5 %: undecided, not met
        self.assertTrue(v["closed R1s C=1,000: vt-adaptive ≥ 1.0 × the better kernel pool (kernel-1000)"]
                        .startswith("undecided"))
        # 420 / 500 = 0.84 against 0.97, beyond the 5 % spread
        self.assertEqual(v["closed R1s C=1,000: vt-adaptive ≥ 0.97 × vt-unbounded (its wins kept)"], "MISSED")

    def test_a_503_counts_only_where_kernel_200_answered_every_request(self):
        rows = [row("kernel-200", 100, c=100), row("vt-adaptive", 100, c=100, non2xx=3),
                row("kernel-200", 50, c=8000, errors=40), row("vt-adaptive", 90, c=8000, non2xx=700)]
        rows += [dict(r, config="vt-adaptive-twin") for r in rows if r["config"] == "vt-adaptive"]
        v = verdicts(closed(Data(rows)))
        self.assertEqual(v["closed: vt-adaptive no 503 (no non-2xx) at every point where kernel-200 answered every "
                           "request"], "MISSED: R1s C=100: 3 non-2xx")

    def test_open_model_p99_against_kernel_200_undecided_within_the_twins(self):
        def o(config, p99, fr="0.9", failed=""):
            return dict(config=config, workload="page", fraction=fr, p99_ms=str(p99), failed=failed)
        v = verdicts(open_p99([o("kernel-200", 400), o("vt-adaptive", 300), o("vt-adaptive-twin", 310),
                               o("kernel-200", 200, "0.5"), o("vt-adaptive", 210, "0.5"),
                               o("vt-adaptive-twin", 160, "0.5"), o("kernel-200", 90, "0.7"),
                               o("vt-adaptive", 0, "0.7", failed="oha exited 1")]))
        self.assertEqual(v["open model page at 90 % of kernel-200's capacity: vt-adaptive p99 ≤ kernel-200's"], "met")
        self.assertTrue(v["open model page at 50 % of kernel-200's capacity: vt-adaptive p99 ≤ kernel-200's"]
                        .startswith("undecided"))
        self.assertEqual(v["open model page at 70 % of kernel-200's capacity: vt-adaptive p99 ≤ kernel-200's"],
                         "MISSED")


if __name__ == "__main__":
    unittest.main()
