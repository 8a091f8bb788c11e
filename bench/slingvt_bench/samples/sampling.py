"""What the server process costs, read from /proc and jcmd: threads, RSS, CPU seconds, heap after a full GC;
the drain wait; the machine description in meta.json."""
import datetime
import os
import re
import resource
import subprocess
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
QUIET_CPU = 0.25  # cores: below this the instance counts as drained


def proc_threads_rss(pid):
    threads = rss = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    threads = int(line.split()[1])
                elif line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) / 1024.0  # MiB
    except OSError:
        pass
    return threads, rss


# The JVM starts this thread at the first attach (the benchmark's own jcmd for the heap after GC) and keeps it: it is
# the benchmark's, not the server's, and the thread counts leave it out.
ATTACH_LISTENER = "Attach Listener"


def tasks(pid):
    """(task id, thread name) of each live OS thread of the process; none where it is gone. A thread that ends while
    this reads is left out."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                yield tid, f.read().strip()
        except OSError:
            continue


def attach_listener(pid):
    """The task id of the JVM's Attach Listener, or None where it has none (nothing attached yet)."""
    return next((tid for tid, name in tasks(pid) if name == ATTACH_LISTENER), None)


def server_threads(pid, threads, listener):
    """threads (from /proc/<pid>/status) without the Attach Listener with task id listener while it lives."""
    if threads and listener and os.path.exists(f"/proc/{pid}/task/{listener}"):
        return threads - 1
    return threads


def proc_cpu_seconds(pid):
    split = proc_cpu_split(pid)
    return sum(split) if split else None


def proc_cpu_split(pid):
    """(user, system) CPU seconds of a process, all its threads, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK  # utime, stime
    except OSError:
        return None


def heap_after_gc(jcmd, pid):
    """Full GC, then the used heap in MiB (G1 or ZGC, read from GC.heap_info)."""
    try:
        subprocess.run([jcmd, str(pid), "GC.run"], capture_output=True, timeout=30)
        out = subprocess.run([jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=30).stdout
    except subprocess.TimeoutExpired:
        return None
    return used_heap_mib(out)


def used_heap_mib(heap_info):
    """The used heap of a GC.heap_info answer in MiB. G1 (JDK 25): "garbage-first heap   total reserved 6172672K,
    committed 180224K, used 49691K [...]"; ZGC: " ZHeap           used 84M, capacity 2048M, max capacity 2048M"."""
    m = re.search(r"heap\s+total[^\n]*?used\s+(\d+)([KMG])", heap_info) or re.search(
        r"ZHeap\s+used\s+(\d+)([KMG])", heap_info)
    if not m:
        return None
    return int(m.group(1)) * {"K": 1 / 1024.0, "M": 1.0, "G": 1024.0}[m.group(2)]


# Which JVM threads do what, by the name Linux keeps of them (/proc/<pid>/task/<tid>/comm, at most 15 characters):
# HotSpot's G1 and ZGC workers, drivers and refinement threads, and its JIT compilers.
GC_THREAD = re.compile(r"^(GC Thread|G1 |Z[A-Z][a-z]|VM Thread)")
JIT_THREAD = re.compile(r"^C[12] Compiler")


def thread_cpu_split(pid):
    """CPU seconds of the process's threads, split into (gc, jit, all): GC includes the VM thread, which runs the
    safepoint operations of the collectors. Threads that ended in between are missing from both readings; under a
    steady load those are short-lived and few."""
    if not os.path.isdir(f"/proc/{pid}/task"):
        return None
    gc = jit = total = 0.0
    for tid, name in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
        total += cpu
        if GC_THREAD.match(name):
            gc += cpu
        elif JIT_THREAD.match(name):
            jit += cpu
    return gc, jit, total


def thread_census(pid):
    """Live OS threads grouped by name with the numbers taken out ("qtp1914326-45" -> "qtp-"), largest group first,
    as "name=count;..." for results.csv; without the benchmark's own Attach Listener."""
    groups = {}
    for _, comm in tasks(pid):
        if comm == ATTACH_LISTENER:
            continue  # the benchmark's own (ATTACH_LISTENER)
        name = re.sub(r"[0-9]+", "", comm).rstrip(" #-") or "?"
        groups[name] = groups.get(name, 0) + 1
    return ";".join(f"{k}={v}" for k, v in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])))


def wait_quiet(pid, timeout):
    """Until the process uses less than QUIET_CPU cores over a second: requests whose clients are gone still run
    to the end (a servlet does not notice a closed connection), and that work must not leak into the next point."""
    deadline = time.time() + timeout
    prev = proc_cpu_seconds(pid)
    while time.time() < deadline and prev is not None:
        time.sleep(1)
        cur = proc_cpu_seconds(pid)
        if cur is None or cur - prev < QUIET_CPU:
            return True
        prev = cur
    return False


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1048576
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def machine_info(args, fd_limit, pinning):
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return ""
    mem = re.search(r"MemTotal:\s+(\d+)", read("/proc/meminfo"))
    model = re.search(r"model name\s*:\s*(.*)", read("/proc/cpuinfo"))
    jv = subprocess.run([os.path.join(args.java_home, "bin", "java"), "-version"], capture_output=True, text=True)
    wv = subprocess.run([args.wrk, "-v"], capture_output=True, text=True)
    load = read("/proc/loadavg")
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": os.cpu_count(), "cpu_model": model.group(1) if model else "",
        "mem_gib": round(int(mem.group(1)) / 1048576, 1) if mem else None,
        "kernel": " ".join(os.uname()[2:3]) + " " + os.uname()[4],
        "os": (re.search(r'PRETTY_NAME="([^"]*)"', read("/etc/os-release")) or [None, ""])[1],
        "jdk": (jv.stderr.splitlines() or [""])[0] + " / " + ((jv.stderr.splitlines() + ["", ""])[1]),
        "java_home": args.java_home, "jvm_opts": args.jvm_opts,
        "wrk": (wv.stdout + wv.stderr).splitlines()[0] if (wv.stdout + wv.stderr) else "",
        "wrk_threads": args.wrk_threads, "wrk_timeout_s": args.wrk_timeout,
        "fd_limit": fd_limit, "pinning": pinning,
        "somaxconn": read("/proc/sys/net/core/somaxconn"),
        "loadavg_at_start": load,
    }
