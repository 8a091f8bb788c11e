"""Process control shared by the benchmark and the overload run: logging, the registry of every process
started (each stopped by its PID on exit or signal), CPU affinity and free ports."""
import os
import signal
import socket
import sys
import time


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass

RUNNING = {}  # pid -> description; everything we started, stopped by PID on exit
STOP_TIMEOUT = 30


def stop_pid(pid, what, timeout=STOP_TIMEOUT):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        RUNNING.pop(pid, None)
        return
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid if not pid_alive(pid) else 0
        if done == pid:
            break
        time.sleep(0.2)
    else:
        log(f"{what} (PID {pid}) did not stop within {timeout} s; killing it")
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    RUNNING.pop(pid, None)


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie child counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop_all():
    for pid, what in list(RUNNING.items()):
        log(f"stopping {what} (PID {pid})")
        stop_pid(pid, what)


def on_signal(signum, _frame):
    log(f"signal {signum}: stopping what the benchmark started")
    stop_all()
    sys.exit(130)


def affinity_fn(cpus):
    def fn():
        if cpus:
            os.sched_setaffinity(0, cpus)
    return fn


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_in_use(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def run_main(main, command):
    """main() with a BenchError turned into one line and exit code 1, after stopping what was started."""
    try:
        return main()
    except BenchError as e:
        stop_all()
        print(f"sling-vt {command}: {e}", file=sys.stderr)
        return 1
