"""An overload point (overload_phase.point): what it reads from the instance before its load."""
import types
import unittest
from unittest import mock

from slingvt_bench.plan import overload_phase


class OverloadPointTest(unittest.TestCase):

    def test_the_point_counts_from_an_idle_instance(self):
        """The counters before a point are read once the instance is idle: a closed point's clients stop with
        requests still queued, and those end (admitted or abandoned) for a few seconds after."""
        calls = []
        inst = types.SimpleNamespace(name="vt-adaptive", pid=1, url="http://127.0.0.1:1", check_alive=lambda: None)

        def drain(i, has_counters):
            calls.append("drain")
            return {"admitted": 5}, {"admitted": 2, "rejected": 0}

        def status(i):
            calls.append("status")
            return {"admitted": 5}

        def oha(*a, **k):
            calls.append("load")
            raise RuntimeError("stop here")

        dummy_watch = mock.MagicMock()
        dummy_watch.return_value.start.return_value = dummy_watch.return_value
        args = types.SimpleNamespace(oha="oha")
        with mock.patch.object(overload_phase, "ensure_running", return_value=None), \
                mock.patch.object(overload_phase, "drain", drain), \
                mock.patch.object(overload_phase, "status", status), \
                mock.patch.object(overload_phase, "run_oha", oha), \
                mock.patch.object(overload_phase.watch, "Watch", dummy_watch), \
                mock.patch.object(overload_phase.hostprobe, "measure", lambda p: calls.append("probe")), \
                mock.patch.object(overload_phase.ov, "command", return_value=["oha"]):
            with self.assertRaisesRegex(RuntimeError, "stop here"):
                overload_phase.point(args, inst, "R100ms", {"params": "x=1"}, 1.3, 100.0, 10, 1, 1, "/tmp",
                                     {"round": 1}, {})
        self.assertEqual(calls[:3], ["drain", "probe", "load"])
        self.assertNotIn("status", calls[:calls.index("load")])


if __name__ == "__main__":
    unittest.main()
