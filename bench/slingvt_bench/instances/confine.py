"""`--server-cpus LIST` and `--server-cpu-quota CPUS`: each Sling instance in a cgroup of its own, as a container
confines a JVM, and the load generator on the other CPUs.

A cpuset limits the CPUs the instance may run on; a CFS quota limits the CPU time it may take per period (Kubernetes'
`limits.cpu`). A JVM started inside such a group sees it: `availableProcessors()`, the virtual thread scheduler's
parallelism and its container-aware CPU figures follow the set or the quota. Affinity alone (`taskset`, `--pin`)
changes what the JVM sees as its processors but nothing a container changes besides. Needs root and the cgroup v1
`cpuset` / `cpu` controllers or cgroup v2 with them; says so when they are missing.
"""
import os

from slingvt_bench.core.common import BenchError

V1_ROOT = "/sys/fs/cgroup"
# The CFS period of a quota: 100 ms, the kernel's (and Kubernetes') default.
CFS_PERIOD_US = 100_000


class ConfineError(BenchError):
    pass


def parse_cpus(spec):
    """'0', '0,2' or '0-1' as a sorted list of CPU numbers."""
    cpus = set()
    try:
        for part in spec.split(","):
            lo, _, hi = part.strip().partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise ConfineError(f"--server-cpus {spec!r}: say CPU numbers as in taskset -c, e.g. 0 or 0-1 or 0,2")
    allowed = os.sched_getaffinity(0)
    if not cpus or not cpus <= allowed:
        raise ConfineError(f"--server-cpus {spec!r}: this process may use CPUs {sorted(allowed)} only")
    return sorted(cpus)


def check_quota(quota):
    if quota is not None and not 0.01 <= quota <= len(os.sched_getaffinity(0)):
        raise ConfineError(f"--server-cpu-quota {quota}: between 0.01 and {len(os.sched_getaffinity(0))} CPUs")
    return quota


def _v2():
    return os.path.exists(os.path.join(V1_ROOT, "cgroup.controllers"))


def _write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def _read(path):
    with open(path) as f:
        return f.read().strip()


class CGroup:
    """The groups of one instance: created before its start, joined by its process, removed after its stop."""

    def __init__(self, name, cpus, quota):
        self.dirs = []
        leaf = f"slingvt-bench-{os.getpid()}-{name}"
        try:
            if _v2():
                self._create_v2(leaf, cpus, quota)
            else:
                self._create_v1(leaf, cpus, quota)
        except OSError as e:
            self.remove()
            raise ConfineError(f"cannot confine {name} to a cgroup ({e}): --server-cpus and --server-cpu-quota need "
                               "root and the cgroup cpuset and cpu controllers (use --pin for affinity only)")

    def _create_v1(self, leaf, cpus, quota):
        if cpus:
            d = os.path.join(V1_ROOT, "cpuset", leaf)
            os.mkdir(d)
            self.dirs.append(d)
            # A cpuset needs its memory nodes before a task may join: the parent's.
            _write(os.path.join(d, "cpuset.mems"), _read(os.path.join(V1_ROOT, "cpuset", "cpuset.mems")))
            _write(os.path.join(d, "cpuset.cpus"), ",".join(map(str, cpus)))
        if quota:
            d = os.path.join(V1_ROOT, "cpu", leaf)
            os.mkdir(d)
            self.dirs.append(d)
            _write(os.path.join(d, "cpu.cfs_period_us"), CFS_PERIOD_US)
            _write(os.path.join(d, "cpu.cfs_quota_us"), int(quota * CFS_PERIOD_US))

    def _create_v2(self, leaf, cpus, quota):
        _write(os.path.join(V1_ROOT, "cgroup.subtree_control"), "+cpuset +cpu")
        d = os.path.join(V1_ROOT, leaf)
        os.mkdir(d)
        self.dirs.append(d)
        if cpus:
            _write(os.path.join(d, "cpuset.cpus"), ",".join(map(str, cpus)))
        if quota:
            _write(os.path.join(d, "cpu.max"), f"{int(quota * CFS_PERIOD_US)} {CFS_PERIOD_US}")

    def join_fn(self):
        """For Popen's preexec_fn: the child joins every group before it execs (the JVM starts inside)."""
        procs = [os.path.join(d, "cgroup.procs") for d in self.dirs]

        def join():
            for p in procs:
                _write(p, os.getpid())
        return join

    def remove(self):
        """Removes the groups once their processes are gone; a group still in use stays (the kernel refuses)."""
        for d in reversed(self.dirs):
            try:
                os.rmdir(d)
            except OSError:
                pass
        self.dirs = []


def plan(args, pinning):
    """After core.setups.plan_cpus: --server-cpus / --server-cpu-quota, when given, decide where the server and the
    load generator run (args.confine for Instance, args.server_cpus / args.load_cpus for the affinities); answers
    the description of the placement for the log and meta.json."""
    spec, quota = getattr(args, "server_cpus_spec", None), check_quota(getattr(args, "server_cpu_quota", None))
    args.confine = None
    if not spec and not quota:
        return pinning
    cpus = parse_cpus(spec) if spec else []
    rest = sorted(os.sched_getaffinity(0) - set(cpus)) if cpus else []
    args.confine = dict(cpus=cpus, quota=quota)
    args.server_cpus = set(cpus) or None
    args.load_cpus = set(rest) or None
    return describe(cpus, quota, rest)


def describe(cpus, quota, load_cpus):
    parts = []
    if cpus:
        parts.append(f"CPU {cpus} (cgroup cpuset)")
    if quota:
        parts.append(f"a quota of {quota:g} CPU (CFS, {CFS_PERIOD_US // 1000} ms period)")
    where = f"load generator on CPU {sorted(load_cpus)}" if load_cpus else "load generator on every CPU"
    return f"server confined to {' and '.join(parts)}, {where}"
