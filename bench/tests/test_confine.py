"""--server-cpus / --server-cpu-quota: the instance's cgroup, the load generator's CPUs, and clear refusals."""
import argparse
import os
import tempfile
import unittest
from unittest import mock

from slingvt_bench.instances import confine


def fake_v1_root(tmp):
    for controller in ("cpuset", "cpu"):
        os.makedirs(os.path.join(tmp, controller))
    with open(os.path.join(tmp, "cpuset", "cpuset.mems"), "w") as f:
        f.write("0\n")
    return tmp


def read(path):
    with open(path) as f:
        return f.read()


class ConfineTest(unittest.TestCase):

    def test_cpu_lists_read_as_taskset_reads_them_and_other_cpus_are_refused(self):
        with mock.patch("os.sched_getaffinity", return_value={0, 1, 2, 3}):
            self.assertEqual(confine.parse_cpus("0"), [0])
            self.assertEqual(confine.parse_cpus("0-2"), [0, 1, 2])
            self.assertEqual(confine.parse_cpus("3,1"), [1, 3])
            with self.assertRaisesRegex(confine.ConfineError, "may use CPUs"):
                confine.parse_cpus("4")
            with self.assertRaisesRegex(confine.ConfineError, "taskset -c"):
                confine.parse_cpus("first")
            with self.assertRaisesRegex(confine.ConfineError, "between 0.01 and 4"):
                confine.check_quota(8)

    def test_the_server_gets_its_cpus_and_the_load_generator_the_others(self):
        args = argparse.Namespace(server_cpus_spec="0", server_cpu_quota=None, server_cpus=None, load_cpus=None)
        with mock.patch("os.sched_getaffinity", return_value={0, 1}):
            text = confine.plan(args, "not pinned")
        self.assertEqual(args.confine, dict(cpus=[0], quota=None))
        self.assertEqual((args.server_cpus, args.load_cpus), ({0}, {1}))
        self.assertIn("CPU [0] (cgroup cpuset), load generator on CPU [1]", text)

    def test_without_the_options_the_pinning_stays_as_planned(self):
        args = argparse.Namespace(server_cpus={0}, load_cpus={1})
        self.assertEqual(confine.plan(args, "pinned"), "pinned")
        self.assertIsNone(args.confine)
        self.assertEqual((args.server_cpus, args.load_cpus), ({0}, {1}))

    def test_a_cgroup_v1_cpuset_and_quota_are_written_joined_and_removed(self):
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(confine, "V1_ROOT", fake_v1_root(tmp)):
            group = confine.CGroup("vt-adaptive", [1], 0.5)
            cpuset, cpu = group.dirs
            self.assertEqual(read(os.path.join(cpuset, "cpuset.cpus")), "1")
            self.assertEqual(read(os.path.join(cpuset, "cpuset.mems")), "0")
            self.assertEqual(read(os.path.join(cpu, "cpu.cfs_quota_us")), "50000")
            self.assertEqual(read(os.path.join(cpu, "cpu.cfs_period_us")), "100000")
            group.join_fn()()
            self.assertEqual(read(os.path.join(cpuset, "cgroup.procs")), str(os.getpid()))
            for d in group.dirs:
                for f in os.listdir(d):
                    os.remove(os.path.join(d, f))  # the kernel empties a group's files itself
            group.remove()
            self.assertFalse(os.path.exists(cpuset) or os.path.exists(cpu))

    def test_without_the_controllers_the_error_says_what_is_needed(self):
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(confine, "V1_ROOT", tmp):
            with self.assertRaisesRegex(confine.ConfineError, "need root and the cgroup cpuset and cpu controllers"):
                confine.CGroup("kernel-200", [0], None)


if __name__ == "__main__":
    unittest.main()
