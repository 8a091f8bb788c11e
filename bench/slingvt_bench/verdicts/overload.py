"""results.md's section for the open-model overload (overload.csv): outcomes with the losses first, the accounting
against the server's counters, and the targets of the default virtual configuration at each overload point."""

from slingvt_bench.verdicts import host_state
from slingvt_bench.verdicts import overload_rounds
from slingvt_bench.core import overload_rows as ov
from slingvt_bench.core import open_rows
from slingvt_bench.core.rows import num, rate_point, round_of
from slingvt_bench.core.setups import DEFAULT_VIRTUAL, REFERENCE, aa_pair
import math

from slingvt_bench.verdicts.judge import AT_BOUND, HOST_UNDECIDED, row_at_bound, unless_even_split, verdict


def index(rows):
    """(config, workload, fraction) -> the row that stands for the point: its median round (ov.median_rows)."""
    return {(r["config"], *rate_point(r)): r for r in ov.median_rows(rows)}


def aa_spread(by, w, fr, field, rows=None):
    """|A : its twin - 1| (plan.aa_pair) in field at this overload point, or None without both measured; of a round
    in which both were measured in one host state where their median rows were not (round_in_one_state, given rows)."""
    pair = aa_pair({c for c, *_ in by})
    a, b = (by.get((cf, w, fr)) for cf in pair)
    if not a or not b or a.get("failed") or b.get("failed"):
        return None
    if rows:
        a, b, _ = round_in_one_state(rows, *pair, w, fr, a, b)
    x, y = num(a.get(field)), num(b.get(field))
    return abs(x / y - 1) if x is not None and y else None


# A shortfall from "90 % of its own capacity" where the client ran out of connections (overload_open.connection_bound)
# measures the client: the requests it could not send waited in it and count as late, out of the server's sight, where
# a population of clients would each have sent theirs and the server's queue would have ordered them (METHOD.md: client out of connections).
# The comparisons with the reference, on the same client, are judged as they are.
CLIENT_UNDECIDED = "undecided (the client's connections were all taken: its own backlog, bench/METHOD.md: Client out of connections)"

# The p99 of the answers in time cannot pass the client's timeout: an answer later than that is no answer. Where both
# p99s lie within the timeout's last 3 % (AT_BOUND, the share at which the closed model calls a point "at C/R"), both
# configurations kept answering until the client gave up, and their order compares values the timeout cut off.
TIMEOUT_UNDECIDED = "undecided (both p99s at the client's timeout, bench/METHOD.md: P99 at the client's timeout)"


def at_timeout(a, k):
    """Whether the p99s of both rows lie within the last 3 % of their client's timeout (TIMEOUT_UNDECIDED)."""
    t = [num(r.get("timeout_s")) for r in (a, k)]
    p = [num(r.get("p99_ms")) for r in (a, k)]
    return all(x and y is not None and y >= AT_BOUND * x * 1000 for x, y in zip(t, p))


# A closed-model row within a tenth of C/R measured its clients (verdicts.row_at_bound), not the capacity the 90 %
# target divides by (full-2026-12-05b: page C=100 at 965-982 of 1,000/s, the only closed rows in the overload round's
# host state, stood for a capacity of 2,444/s and judged 2,145/s in time 218 % of it).
CLIENT_BOUND_SHARE = 0.9


def own_capacity(a, closed):
    """(capacity, state) the 90 % target divides row a by. Where the closed-model rows and the probes tell: a's
    configuration's best closed-model rate on the workload in a's host state (state "same"; rows at Little's bound
    C/R measure the clients and are left out), else the recorded own
    capacity, its best in any state, with state "other" where every closed row was in another host state than a
    (METHOD.md: one host state: the dear state costs up to 1.75x the CPU per answer of the cheap one), None where nothing is
    known."""
    recorded = num(a.get("own_capacity_rps"))
    if not closed or not host_state.probes(a):
        return recorded, None
    mine = [r for r in closed if r["config"] == a["config"] and r["workload"] == a["workload"]
            and not row_at_bound(r, CLIENT_BOUND_SHARE)]
    cap = open_rows.capacity([r for r in mine if host_state.same_state(r, a)], a["config"], a["workload"])
    if cap:
        return cap, "same"
    return recorded, "other" if any(host_state.same_state(r, a) is False for r in mine) else None


def ratios(a, k, by, w, fr, own=None, rows=None):
    """The default's three overload targets that compare figures, (ratio, goal, spread, a throughput goal) each:
    answers in time per second against ref's (goal 1.0); against the lower of the offered rate and its own
    closed-model capacity (0.9: no configuration answers more than is offered); ref's p99 over its own (1.0, "p99 ≤
    ref's"). A ratio is None where a figure is missing. targets() judges them, overload_decisive chooses by them.
    own: the capacity to divide by (own_capacity), else the recorded one; rows: the point's rounds, for the twins'
    spread in one host state (aa_spread)."""
    ok_a, ok_k = num(a.get("ok_per_s")), num(k.get("ok_per_s"))
    own, rate = own or num(a.get("own_capacity_rps")), num(a.get("target_rps"))
    top = min(own, rate) if own and rate else None
    p_a, p_k = num(a.get("p99_ms")), num(k.get("p99_ms"))
    sp_ok = aa_spread(by, w, fr, "ok_per_s", rows)
    return [(ok_a / ok_k if ok_a is not None and ok_k else None, 1.0, sp_ok, True),
            (ok_a / top if ok_a is not None and top else None, 0.9, sp_ok, True),
            (p_k / p_a if p_a and p_k is not None else None, 1.0, aa_spread(by, w, fr, "p99_ms", rows), False)]


def judged(a, k, measured, goal, spread):
    """verdict(), except that v's and ref's rows measured in two host states (hostprobe.same_state) decide nothing
    within hostprobe.STATE_EFFECT of the goal (METHOD.md: one host state)."""
    if host_state.same_state(a, k) is False and host_state.host_explains(measured, goal):
        return HOST_UNDECIDED
    return verdict(measured, goal, spread)


def round_in_one_state(rows, v, ref, w, fr, a, k):
    """(a, k, note): the median rows of v and ref at this point, or, where those were measured in two host states and
    some round measured both in one, that round's rows (the round with the lower median of v's answers in time among
    such rounds), with a note naming it (METHOD.md: one host state)."""
    if host_state.same_state(a, k) is not False:
        return a, k, ""
    pairs = {}
    for r in rows:
        if rate_point(r) == (w, fr) and r["config"] in (v, ref) and not r.get("failed"):
            pairs.setdefault(round_of(r), {})[r["config"]] = r
    same = sorted((p for p in pairs.values() if len(p) == 2 and host_state.same_state(p[v], p[ref])),
                  key=lambda p: (num(p[v].get("ok_per_s")) or 0.0, round_of(p[v])))
    if not same:
        return a, k, ""
    pick = same[(len(same) - 1) // 2]
    return pick[v], pick[ref], f" (round {round_of(pick[v])}: of the rounds in one host state)"


def point_label(row, ref=REFERENCE):
    """How the targets name an overload point: 'R10ms at 4370.4/s (200 % of kernel-200)'."""
    return f"{row['workload']} at {row['target_rps']}/s ({round(num(row['fraction']) * 100)} % of {ref})"


def targets(rows, v=DEFAULT_VIRTUAL, ref=REFERENCE, closed=None):
    """(target, measured, verdict) for v at every overload point where v or ref was planned: answers in time per
    second ≥ ref's; ≥ 90 % of v's own closed-model capacity (in the same host state where closed, the run's
    results.csv rows, tell: own_capacity); p99 of its answers ≤ ref's; zero 503 where ref answered every request in
    time. A ratio within the A/A spread of its goal is undecided; a failed point is MISSED."""
    by, out = index(rows), []
    for w, fr in dict.fromkeys(rate_point(r) for r in rows if r["config"] in (v, ref)):
        a, k = by.get((v, w, fr)), by.get((ref, w, fr))
        where = point_label(a or k, ref)
        bad = [cf for cf, r in ((v, a), (ref, k)) if r is None or r.get("failed")]
        labels = [f"{where}: {v} answers in time/s ≥ {ref}'s",
                  f"{where}: {v} ≥ 90 % of its own closed-model capacity (at most the offered rate)",
                  f"{where}: {v} p99 of its answers ≤ {ref}'s", f"{where}: {v} zero 503 where {ref} answered every "
                  "request in time"]
        if bad:
            why = "MISSED (failed: " + ", ".join(f"{cf} {'not measured' if by.get((cf, w, fr)) is None else 'failed'}"
                                                 for cf in bad) + ")"
            out += [(lb, "failed", why) for lb in labels]
            continue
        a, k, note = round_in_one_state(rows, v, ref, w, fr, a, k)
        own, state = own_capacity(a, closed)
        _, (r_top, _, sp_ok, _), _ = ratios(a, k, by, w, fr, own, rows)
        ok_a = num(a["ok_per_s"]) or 0.0
        out.append(against_ref(rows, labels[0], v, ref, w, fr, "ok_per_s", a, k, note))
        rate = num(a.get("target_rps"))
        in_state = {"same": " in this host state", "other": " in another host state"}.get(state, "")
        # Answers in time of at least 90 % of what was offered meet the target whatever state the capacity was
        # measured in: no capacity divides by more than the offered rate.
        host = state == "other" and host_state.host_explains(r_top or 0.0, 0.9) \
            and not (rate and ok_a >= 0.9 * rate)
        top = verdict(r_top or 0.0, 0.9, sp_ok)
        out.append((labels[1], f"{ok_a:,.1f} of min(offered {rate:,.1f}, own {own:,.1f}{in_state})/s = "
                    f"{100 * (r_top or 0):.0f} %{note}" if own and rate else "no capacity",
                    "not measured" if not (own and rate) else HOST_UNDECIDED if host
                    else CLIENT_UNDECIDED if top == "MISSED" and connection_bound(a) else top))
        p_a, p_k = num(a.get("p99_ms")), num(k.get("p99_ms"))
        if p_a is None:
            out.append((labels[2], f"{v} answered nothing in time", "MISSED"))
        elif p_k is None:
            out.append((labels[2], f"{ref} answered nothing in time", "not measured"))
        else:  # "p99 ≤ ref's" as ref / p99 ≥ 1, against the twins' difference in p99
            out.append(against_ref(rows, labels[2], v, ref, w, fr, "p99_ms", a, k, note))
        lost_k, s503 = int(num(k["losses"]) or 0), int(num(a["s503"]) or 0)
        if lost_k:
            out.append((labels[3], f"{ref} did not answer {lost_k:,} in time", "not applicable"))
        else:
            out.append((labels[3], f"{s503:,} × 503", "met" if s503 == 0 else "MISSED"))
    return out


def against_ref(rows, label, v, ref, w, fr, field, a, k, note):
    """(target, measured, verdict) of "v's answers in time/s ≥ ref's" (field ok_per_s) or "v's p99 ≤ ref's" (p99_ms,
    judged as ref's over v's) from the per-round pairs (overload_rounds, METHOD.md: paired overload rounds); a, k and note: the rows
    that stand for the point (round_in_one_state), used where no round has both."""
    p99 = field == "p99_ms"
    found = overload_rounds.median_pair(rows, v, ref, w, fr, field, inverse=p99)
    if found:
        ratio, a, k, used, left_out = found
        more = overload_rounds.per_round_note(used, left_out, "{:.3f}" if p99 else "{:.2f}", round_of(a))
    x, y = num(a.get(field)) or 0.0, num(k.get(field)) or 0.0
    if not found:
        ratio, more = ((y / x if p99 else x / y) if x and y else None), note
    sp = overload_rounds.spread(rows, w, fr, field)  # A : its twin in the field itself, as aa_spread
    per = used if found else []
    if p99:
        return (label, f"{x:,.1f} vs {y:,.1f} ms" + more, TIMEOUT_UNDECIDED if at_timeout(a, k)
                else unless_even_split(judged(a, k, ratio if ratio is not None else float("inf"), 1.0, sp), per))
    return (label, f"{x:,.1f} vs {y:,.1f}/s" + (f" = {ratio or 0.0:.2f}×" if y else "") + more,
            unless_even_split(judged(a, k, ratio or 0.0, 1.0, sp), per) if y else "met")


# The share of its connections a client may still have had free and yet count as having run out of them: in
# full-2026-11-28b the capped points ended with 7,700-8,000 of 8,000 open, while repo200 at 200 %, short of
# connections by the rate alone, ended with auto's client at 5,852 (2,148 free) and the server held a median of 6,266
# of them during the point: not capped.
FREE_AT_CAP = 0.05


def connection_bound(row):
    """True where the client ran out of connections: fewer than the rate times (timeout + 0.5 s)
    (connections, capped by the file-descriptor limit), and all but FREE_AT_CAP of them taken, either by the requests
    the server held (in flight and queued, the median of the point's samples: held_median) or still open when the
    point ended (cut_off); rows with neither are judged by the rate alone. Its backlog then waits in the client, late
    before it is sent, and another round on the same machine measures the same cap, not the server. The samples see
    what the end can miss: a server that answers a share of its queue in the point's last second (full-2026-12-02,
    R100ms at 200 %: a median of 8,000 of 8,000 held in the samples, 6,771 open at the end; METHOD.md: client out of connections). The row
    keeps the rate to 0.1/s, the connections came from the exact rate: one connection less than the rounded rate
    asks for is not a cap."""
    rate, timeout, conns = num(row.get("target_rps")), num(row.get("timeout_s")), num(row.get("connections"))
    if rate is None or timeout is None or conns is None or conns >= math.ceil(rate * (timeout + 0.5)) - 1:
        return False
    held, open_at_end = num(row.get("held_median")), num(row.get("cut_off"))
    if held is None and open_at_end is None:
        return True
    return any(n is not None and n >= (1 - FREE_AT_CAP) * conns for n in (held, open_at_end))
