"""What the server did during one open-model overload point: its process CPU and, where the configuration has Sling
VT's counters, its admission (the limit of `auto`, requests in flight and queued, completed) read from the status JSON
every WATCH_PERIOD_S while oha runs. A miss of "90 % of its own capacity" is then told apart: a limit or queue that
starves the carriers shows in the admission series, a server that pays more CPU per answer than at its closed-model
capacity point (the machine's state, the work itself) in the CPU per completed request."""
import statistics
import threading
import time

from slingvt_bench.core.open_rows import capacity_row
from slingvt_bench.core.rows import num
from slingvt_bench.samples.sampling import proc_cpu_seconds

WATCH_PERIOD_S = 2.0
# newest_first: 1 while the admission queue serves its newest first (in overload), 0 in arrival order.
# carriers_mounted / carriers_queued: the virtual thread scheduler's counts at the read (JDK 24+; blank where the
# status has none), what `auto`'s law reads: a limit that falls shows whether the carriers' queue held it down.
WATCH_FIELDS = ["config", "workload", "fraction", "round", "second", "limit", "in_flight", "queued", "completed",
                "cpu_pct", "newest_first", "carriers_mounted", "carriers_queued"]


class Watch:
    """start() before the point, stop() when oha is done (no status read after it, so that the drain's own reads and
    its final status are not raced), finish() after the drain: the CPU counts until the server is idle again.
    read_status() returns the status JSON or None; every successful read is one of the benchmark's own requests (the
    console is admitted and counted, never queued), counted in `reads`."""

    def __init__(self, pid, read_status=None, period_s=WATCH_PERIOD_S, clock=time.monotonic):
        self.pid = pid
        self.read_status = read_status
        self.period_s = period_s
        self.clock = clock
        self.samples = []
        self.reads = 0
        self.cpu_s = None
        self.elapsed_s = None
        self._stop = threading.Event()
        self._thread = None
        self._t0 = self._cpu0 = None
        self._last = (None, None)

    def start(self):
        self._t0, self._cpu0 = self.clock(), proc_cpu_seconds(self.pid)
        if self.read_status is not None:
            self._thread = threading.Thread(target=self._run, name="overload-watch", daemon=True)
            self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def finish(self):
        self.stop()
        cpu1 = proc_cpu_seconds(self.pid)
        self.elapsed_s = self.clock() - self._t0
        if self._cpu0 is not None and cpu1 is not None:
            self.cpu_s = cpu1 - self._cpu0

    def _run(self):
        while not self._stop.wait(self.period_s):
            self.sample()

    def sample(self):
        """One read: the admission from the status JSON and the process CPU since the read before."""
        s = self.read_status()
        if s is None:
            return
        self.reads += 1
        now, cpu = self.clock(), proc_cpu_seconds(self.pid)
        last_t, last_cpu = self._last if self.samples else (self._t0, self._cpu0)
        pct = round(100 * (cpu - last_cpu) / (now - last_t), 1) \
            if cpu is not None and last_cpu is not None and now > last_t else ""
        self._last = (now, cpu)
        scheduler = s.get("scheduler") or {}
        self.samples.append(dict(second=round(now - self._t0, 1), limit=s.get("concurrencyLimit", ""),
                                 in_flight=s.get("inFlight", ""), queued=s.get("queued", ""),
                                 completed=s.get("completed", ""), cpu_pct=pct,
                                 newest_first=int(s["newestFirst"]) if "newestFirst" in s else "",
                                 carriers_mounted=scheduler.get("mountedVirtualThreadCount", ""),
                                 carriers_queued=scheduler.get("queuedVirtualThreadCount", "")))


def summary(watch, completed):
    """The row fields of one point: the process CPU over the point and per completed request (completed: the
    server's count across the point, or the client's answers where there are no counters), the limit's range, the
    median in flight, the most queued and the median of the requests held (in flight and queued: one client
    connection each) among the samples."""
    out = dict(cpu_pct="", cpu_ms_per_completed="", limit_min="", limit_max="", in_flight_median="", queued_max="",
               held_median="", watch_samples=len(watch.samples))
    if watch.cpu_s is not None and watch.elapsed_s:
        out["cpu_pct"] = round(100 * watch.cpu_s / watch.elapsed_s, 1)
        if completed:
            out["cpu_ms_per_completed"] = round(1000 * watch.cpu_s / completed, 2)

    def ints(*fields):
        """Per sample where every field is a whole number (a status without it leaves it blank), their sum."""
        return [sum(int(s[f]) for f in fields) for s in watch.samples
                if all(str(s.get(f, "")).lstrip("-").isdigit() for f in fields)]
    limits, flights, queues, held = ints("limit"), ints("in_flight"), ints("queued"), ints("in_flight", "queued")
    if limits:
        out.update(limit_min=min(limits), limit_max=max(limits))
    if flights:
        out["in_flight_median"] = round(statistics.median(flights))
    if queues:
        out["queued_max"] = max(queues)
    if held:
        out["held_median"] = round(statistics.median(held))
    return out


def closed_cpu_ms(rows, config, workload):
    """CPU per answer (ms) of config at its closed-model capacity point on workload (openload.capacity_row: the
    point the 90 % target divides by), or None: what the same server paid per answer without overload."""
    found = capacity_row(rows, config, workload)
    # cpu_pct is the process CPU over the whole wrk run, as is rps (the steady window is a part of it).
    cpu, rps = (num(found[0].get("cpu_pct")), num(found[0].get("rps"))) if found else (None, None)
    return round(10 * cpu / rps, 2) if cpu and rps else None


def closed_client_cpu(rows, config, workload):
    """The load generator's CPU (% of one CPU) at that same capacity point, or "": on 2 cores the client shares the
    CPUs, and what it takes at the overload beside this tells how much of the machine the server could have had."""
    found = capacity_row(rows, config, workload)
    return found[0].get("client_cpu_pct", "") if found else ""
