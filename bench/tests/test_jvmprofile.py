"""./sling-vt profile's pure parts: which component a sampled frame belongs to, the class histogram, the points."""
import unittest

from slingvt_bench.core.common import BenchError
from slingvt_bench.scenarios.jvmprofile import attribute, component, parse_histogram
from slingvt_bench.scenarios.profilepoints import open_rate, parse_points


class JvmProfileTest(unittest.TestCase):

    def test_frames_are_sorted_into_components_by_package(self):
        self.assertEqual(component("io.github.slingvt.http.internal.DispatchHandler.handle"), "Sling VT (ours)")
        self.assertEqual(component("org.apache.jackrabbit.oak.segment.SegmentId.getSegment"), "Oak")
        self.assertEqual(component("org.eclipse.jetty.io.ArrayByteBufferPool.acquire"), "Jetty")
        self.assertEqual(component("java.util.concurrent.ForkJoinPool.scan"), "virtual thread scheduling (JDK)")
        self.assertEqual(component("sun.security.provider.SHA2.implCompress0"), "crypto (the workload's SHA-256)")
        self.assertEqual(component("java.util.HashMap.get"), "other JDK")
        self.assertEqual(component("com.example.Foo.bar"), "other")

    def test_a_jdk_top_frame_counts_for_its_first_caller_outside_the_jdk(self):
        def f(cls, name):
            return dict(method=dict(type=dict(name=cls), name=name))
        frames = [f("java.util.concurrent.atomic.LongAdder", "add"), f("java.util.HashMap", "get"),
                  f("org.apache.jackrabbit.oak.stats.MeterStats", "mark"), f("org.eclipse.jetty.server.Server", "x")]
        self.assertEqual(attribute(frames), ("Oak", "java.util.concurrent.atomic.LongAdder.add <- "
                                                    "org.apache.jackrabbit.oak.stats.MeterStats.mark"))
        self.assertEqual(attribute(frames[:2]), ("other JDK", "java.util.concurrent.atomic.LongAdder.add"))
        self.assertEqual(attribute(frames[2:]), ("Oak", "org.apache.jackrabbit.oak.stats.MeterStats.mark"))

    def test_class_histogram_rows(self):
        text = (" num     #instances         #bytes  class name (module)\n"
                "-------------------------------------------------------\n"
                "   1:        120345       98765432  [B (java.base@25.0.3)\n"
                "   2:          4000        1234567  jdk.internal.vm.StackChunk (java.base@25.0.3)\n"
                "Total        124345      100000000\n")
        self.assertEqual(parse_histogram(text), {"[B": (120345, 98765432),
                                                 "jdk.internal.vm.StackChunk": (4000, 1234567)})

    def test_points_are_closed_or_at_a_fixed_rate_in_the_order_given(self):
        self.assertEqual(parse_points("1000, 8000@978,1000"),
                         [(1000, 0.0, 0.0), (8000, 978.0, 0.0), (1000, 0.0, 0.0)])
        for bad in ("1000,", "x", "8000@fast", "0", "100@-5", "100@0", "100@0%", "100@%", "1000,8000@-90%"):
            with self.assertRaises(BenchError, msg=bad):
                parse_points(bad)

    def test_a_percent_point_is_a_share_of_the_closed_point_before_it(self):
        self.assertEqual(parse_points("1000,8000@90%,8000@112.5%,1000"),
                         [(1000, 0.0, 0.0), (8000, 0.0, 0.9), (8000, 0.0, 1.125), (1000, 0.0, 0.0)])
        with self.assertRaisesRegex(BenchError, "closed point"):
            parse_points("8000@90%,1000")

    def test_a_share_becomes_a_rate_once_the_closed_point_before_it_is_measured(self):
        self.assertEqual(open_rate(2, 0.0, 0.9, 451.3), 406)
        self.assertEqual(open_rate(2, 978.0, 0.0, 451.3), 978.0)  # a rate of its own stays
        self.assertEqual(open_rate(1, 0.0, 0.0, 0.0), 0.0)  # a closed point
        with self.assertRaisesRegex(BenchError, "point 3: 90 % of the closed point before it, which answered 0.0/s"):
            open_rate(3, 0.0, 0.9, 0.0)


if __name__ == "__main__":
    unittest.main()
