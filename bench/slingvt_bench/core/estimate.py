"""How long a run takes, said before it starts: every phase's measurements times what one costs on this machine."""

from slingvt_bench.core.setups import GC_TAIL_S

# Wall time of one measurement beyond its load, from full-2026-11-28b on 2 cores: a closed point adds its GC tail,
# the drain and the pause (25.8 s apart for 12 s of load), an open-model run its drain (17 s apart for 15 s), an
# overload run its drains, before and after its load (63-67 s apart for 60 s, median 65, probes included:
# client-sweep-2026-12-01). An instance answers 13-26 s after its start, then warms up.
CLOSED_EXTRA_S = GC_TAIL_S + 10
# The host probe before and after each closed point, open-model run and overload point (hostprobe: 2 x 3 runs of
# 0.03-0.12 s each), which that run did not have.
HOSTPROBE_S = 1
OPEN_EXTRA_S = 2
OVERLOAD_EXTRA_S = 4
START_S = 25
# An instance confined to one CPU (--server-cpus, --server-cpu-quota) starts slower and drains an overload's queue
# with one CPU: in full-confined-2026-12-07 an instance answered and was seeded 54 s after its start (then warmed up),
# and its overload runs of 30 s were 45 s apart; the closed and open phases cost what they cost unconfined (within
# 5 %).
CONFINED_START_S = 54
CONFINED_OVERLOAD_EXTRA_S = 14


def closed_seconds(measurements, duration, probed=True):
    return measurements * (duration + CLOSED_EXTRA_S + (HOSTPROBE_S if probed else 0))


def open_seconds(runs, duration, probed=True):
    return runs * (duration + OPEN_EXTRA_S + (HOSTPROBE_S if probed else 0))


def overload_seconds(runs, duration, probed=True, confined=False):
    extra = CONFINED_OVERLOAD_EXTRA_S if confined else OVERLOAD_EXTRA_S
    return runs * (duration + extra + (HOSTPROBE_S if probed else 0))


def start_seconds(configs, warmup, confined=False):
    return configs * ((CONFINED_START_S if confined else START_S) + warmup)


def minutes(seconds):
    """'2 h 35 min', '64 min', '40 s'."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    h, m = divmod(int(round(seconds / 60)), 60)
    return f"{h} h {m} min" if h else f"{m} min"


def describe(parts):
    """parts: [(phase, seconds)] in run order, zeros left out: 'about 2 h 35 min (start 7 min, closed 74 min, ...)'."""
    shown = [(name, s) for name, s in parts if s > 0]
    return f"about {minutes(sum(s for _, s in shown))} at most (" \
        + ", ".join(f"{name} {minutes(s)}" for name, s in shown) + ")"


def sittings(meta):
    """'2 h 29 min in one sitting', and for every sitting appended with --append what it measured and how long."""
    text = f"{minutes(meta.get('elapsed_s', 0))} in one sitting"
    for a in meta.get("appended", []):
        what = "the overload measured again" if a.get("only_overload") else "rounds added"
        configs = ", ".join(a.get("plan", {}).get("configs", []))
        took = f" in {minutes(a['elapsed_s'])}" if a.get("elapsed_s") else ""
        text += f", {what} ({configs}) in a later sitting{took} on {str(a.get('date', '?'))[:10]}"
    return text
