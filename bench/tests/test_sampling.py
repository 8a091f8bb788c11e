"""What the benchmark reads off a JVM: the used heap of either collector, the collector flag of a configuration,
and the report's CPU-per-request and thread tables."""
import os
import threading
import unittest

from slingvt_bench.core.setups import jvm_opts_for
from slingvt_bench.reports.report import census_table, cpu_table
from slingvt_bench.samples.sampling import (GC_THREAD, JIT_THREAD, attach_listener, proc_cpu_seconds, proc_cpu_split,
                                            server_threads, used_heap_mib)
from slingvt_bench.verdicts.ratios import Data


class SamplingTest(unittest.TestCase):

    def test_the_benchmarks_attach_listener_is_left_out_of_the_thread_count_while_it_lives(self):
        pid, tid = os.getpid(), str(threading.get_native_id())  # a task of this process stands in for it
        self.assertEqual(server_threads(pid, 61, tid), 60)
        self.assertEqual(server_threads(pid, 61, "999999999"), 61)  # gone: nothing to leave out
        self.assertEqual(server_threads(pid, 61, None), 61)
        self.assertIsNone(attach_listener(pid))  # no JVM here, nothing attached

    def test_a_process_cpu_is_its_user_and_its_system_time(self):
        sum(i * i for i in range(200000))  # some CPU of this process's own
        user, system = proc_cpu_split(os.getpid())
        self.assertGreater(user, 0)
        self.assertAlmostEqual(proc_cpu_seconds(os.getpid()), user + system, delta=0.05)
        self.assertIsNone(proc_cpu_split(999999999))  # no such process

    def test_used_heap_of_g1_and_zgc(self):
        g1 = " garbage-first heap   total reserved 6172672K, committed 180224K, used 49691K [0x0, 0x1)\n"
        self.assertAlmostEqual(used_heap_mib(g1), 49691 / 1024.0)
        zgc = " ZHeap           used 84M, capacity 2048M, max capacity 2048M\n Metaspace       used 90K\n"
        self.assertEqual(used_heap_mib(zgc), 84.0)
        self.assertIsNone(used_heap_mib("no heap here"))

    def test_gc_replaces_only_the_collector(self):
        opts = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseG1GC"
        self.assertEqual(jvm_opts_for(opts, None, 25), opts)
        self.assertEqual(jvm_opts_for(opts, "zgc", 25), "-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseZGC")
        self.assertEqual(jvm_opts_for(opts, "zgc", 21),
                         "-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseZGC -XX:+ZGenerational")
        self.assertEqual(jvm_opts_for(opts, None, 25, "6g"), "-XX:+AlwaysPreTouch -XX:+UseG1GC -Xms6g -Xmx6g")

    def test_thread_names_of_collectors_and_compilers(self):
        for name in ("GC Thread#0", "G1 Conc#0", "G1 Refine#0", "ZWorkerYoung#0", "ZDriverMajor", "VM Thread"):
            self.assertTrue(GC_THREAD.match(name), name)
        for name in ("ForkJoinPool-1-", "qtp1914326-45", "EventAdminThrea", "ZooKeeper"):
            self.assertFalse(GC_THREAD.match(name), name)
        self.assertTrue(JIT_THREAD.match("C2 CompilerThre"))

    def test_cpu_per_request_and_census_tables(self):
        rows = [dict(config="vt-unbounded", workload="R1s", concurrency="1000", round="1", rps_steady="900",
                     rps="", cpu_pct="90", gc_cpu_pct="9", thread_census="ForkJoinPool--worker-=2;qtp-=8;Reaper=1")]
        text = "\n".join(cpu_table(Data(rows)) + census_table(Data(rows)))
        self.assertIn("| R1s | 1,000 | 1.00 (10 % GC) |", text)
        self.assertIn("| vt-unbounded | R1s C=1,000 | 11 | qtp- 8, ForkJoinPool--worker- 2, 1 others of one |", text)


if __name__ == "__main__":
    unittest.main()
