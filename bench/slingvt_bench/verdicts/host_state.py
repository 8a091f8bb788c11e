"""Host-state logic: whether rows were measured in one state of the host (hostprobe's figures) and what a ratio across two states can decide."""


# Two probes of one point further apart than this factor: the host changed state during the point.
STATE_CHANGE = 2.0


# The most the host's state moved a configuration's throughput on this machine: repo200's CPU per answer, 4.0 ms at
# about 200 ns against 2.3 ms at about 45 ns in one JVM (run repo200-host-state-2026-11-28 in the git history of docs/benchmarks). A ratio of
# two configurations measured in different states decides nothing within this factor of its goal.
STATE_EFFECT = 1.75


def changed(before, after):
    """True where the two probes of one point are further apart than STATE_CHANGE (either way)."""
    try:
        a, b = float(before), float(after)
    except (TypeError, ValueError):
        return False
    return a > 0 and b > 0 and max(a, b) / min(a, b) > STATE_CHANGE


def probes(row):
    """The probes of a row (before and after its point) in ns; empty for a row measured without the probe."""
    out = []
    for key in ("handover_ns", "handover_ns_after"):
        try:
            v = float(row.get(key))
        except (TypeError, ValueError):
            continue
        if v > 0:
            out.append(v)
    return out


def same_state(*rows):
    """Whether the rows were measured in one state of the host: True where all their probes are within STATE_CHANGE
    of each other, False where two are further apart, None where a row has no probe (nothing is known)."""
    values = []
    for row in rows:
        p = probes(row)
        if not p:
            return None
        values += p
    return max(values) / min(values) <= STATE_CHANGE


def in_state(probe, row):
    """Whether every probe of row lies within STATE_CHANGE of probe (in ns): the row was measured in its state."""
    p = probes(row)
    return bool(p) and probe > 0 and all(max(probe, q) / min(probe, q) <= STATE_CHANGE for q in p)


def host_explains(measured, goal):
    """Whether a ratio measured across two host states is within STATE_EFFECT of its goal: the host alone could have
    put it on either side, so it decides nothing (METHOD.md: one host state)."""
    return measured is not None and goal / STATE_EFFECT <= measured <= goal * STATE_EFFECT


def decisive_gap(measured, goal, two_states, explained=None):
    """(distance from the goal that orders the decisive rounds, whether the host explains the ratio) for a ratio whose
    rounds were all measured in two host states (two_states) or not. Such a ratio decides nothing, so it may always get
    rounds; where it falls short of its goal it goes first (a loss only a round in one state can confirm or clear),
    where it is ahead it keeps its place by its distance. Ties at the front otherwise used up the budget in grid order
    with the host changing state about once a minute (full-2026-11-29: R10ms C=8,000 at 1.45x got rounds, repo200
    C=4,000 at 0.69x and R100ms C=100 0.4 % behind did not)."""
    host = bool(two_states) and (host_explains(measured, goal) if explained is None else explained)
    return (0.0 if host and measured < goal else abs(measured / goal - 1)), host


def in_one_state(pairs):
    """(the values used, whether any were left out) of [(value, same host state)]: where the probe saw a round in one
    state, only such rounds; else all (no probe, or every round in two states: only_two_states)."""
    same = [x for x, s in pairs if s]
    if same and len(same) < len(pairs):
        return same, True
    return [x for x, _ in pairs], False


def only_two_states(states):
    """True when the probe saw every one of these rounds (same_state of each pair) in two host states."""
    return False in states and True not in states
