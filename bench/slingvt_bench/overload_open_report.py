"""results.md's section for the open-model overload (overload.csv): outcomes with the losses first, the accounting
against the server's counters, and the targets of the default virtual configuration at each overload point."""
import os

from . import hostprobe, overload_rounds
from . import overload_open as ov
from .data import num, rate_point, read_csv, round_of
from .openload import OHA_VERSION
from .overload_open_tables import accounting_table, config_label, rounds, server_table
from .plan import DEFAULT_VIRTUAL, REFERENCE, aa_pair
from .verdicts import AT_BOUND, DECISIVE_MARGIN, HOST_UNDECIDED, row_at_bound, verdict



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
CLIENT_UNDECIDED = "undecided (the client's connections were all taken: its own backlog, decision 0034)"

# The p99 of the answers in time cannot pass the client's timeout: an answer later than that is no answer. Where both
# p99s lie within the timeout's last 3 % (AT_BOUND, the share at which the closed model calls a point "at C/R"), both
# configurations kept answering until the client gave up, and their order compares values the timeout cut off.
TIMEOUT_UNDECIDED = "undecided (both p99s at the client's timeout, decision 0035)"


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
    if not closed or not hostprobe.probes(a):
        return recorded, None
    mine = [r for r in closed if r["config"] == a["config"] and r["workload"] == a["workload"]
            and not row_at_bound(r, CLIENT_BOUND_SHARE)]
    cap = ov.openload.capacity([r for r in mine if hostprobe.same_state(r, a)], a["config"], a["workload"])
    if cap:
        return cap, "same"
    return recorded, "other" if any(hostprobe.same_state(r, a) is False for r in mine) else None


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
    if hostprobe.same_state(a, k) is False and hostprobe.host_explains(measured, goal):
        return HOST_UNDECIDED
    return verdict(measured, goal, spread)


def round_in_one_state(rows, v, ref, w, fr, a, k):
    """(a, k, note): the median rows of v and ref at this point, or, where those were measured in two host states and
    some round measured both in one, that round's rows (the round with the lower median of v's answers in time among
    such rounds), with a note naming it (METHOD.md: one host state)."""
    if hostprobe.same_state(a, k) is not False:
        return a, k, ""
    pairs = {}
    for r in rows:
        if rate_point(r) == (w, fr) and r["config"] in (v, ref) and not r.get("failed"):
            pairs.setdefault(round_of(r), {})[r["config"]] = r
    same = sorted((p for p in pairs.values() if len(p) == 2 and hostprobe.same_state(p[v], p[ref])),
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
        host = state == "other" and hostprobe.host_explains(r_top or 0.0, 0.9) \
            and not (rate and ok_a >= 0.9 * rate)
        top = verdict(r_top or 0.0, 0.9, sp_ok)
        out.append((labels[1], f"{ok_a:,.1f} of min(offered {rate:,.1f}, own {own:,.1f}{in_state})/s = "
                    f"{100 * (r_top or 0):.0f} %{note}" if own and rate else "no capacity",
                    "not measured" if not (own and rate) else HOST_UNDECIDED if host
                    else CLIENT_UNDECIDED if top == "MISSED" and ov.connection_bound(a) else top))
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
    if p99:
        return (label, f"{x:,.1f} vs {y:,.1f} ms" + more, TIMEOUT_UNDECIDED if at_timeout(a, k)
                else judged(a, k, ratio if ratio is not None else float("inf"), 1.0, sp))
    return (label, f"{x:,.1f} vs {y:,.1f}/s" + (f" = {ratio or 0.0:.2f}×" if y else "") + more,
            judged(a, k, ratio or 0.0, 1.0, sp) if y else "met")


def rounds_note(rows):
    per = {}
    for r in rows:
        per[rate_point(r)] = max(per.get(rate_point(r), 1), round_of(r))
    n, least = max(per.values(), default=1), min(per.values(), default=1)
    if n <= 1:
        return ""
    more = [k for k, m in per.items() if m > least]
    where = (f"{n} rounds per point (--overload-rounds)" if not more else
             "more rounds at the decisive points (--overload-decisive-rounds: a target of the default within "
             f"{100 * DECISIVE_MARGIN:.0f} % or twice the A/A spread of its goal, the client with connections to "
             "spare): " + ", ".join(f"{w} {round(fr * 100)} % {per[(w, fr)]}" for w, fr in more)
             + f"; {least} elsewhere")
    return (f" {where}, one after the other in this sitting, the configurations interleaved in each: every round is a "
            "row; the comparisons with kernel-200 (answers in time, p99) take the median of the per-round ratios and "
            "the twins' largest difference over the rounds (decision 0042), the target against the default's own "
            "capacity its median round (the lower middle one of an even count); a failed round fails the point.")


def short_note(rows):
    durations = sorted({int(num(r["duration_s"])) for r in rows if num(r.get("duration_s"))})
    if durations and durations[0] < ov.DURATION_S:
        return (f"**Shorter than the phase is meant to run**: {', '.join(map(str, durations))} s per point instead of "
                f"≥ {ov.DURATION_S} s (--quick or --overload-duration), so a queue has less time to build up. ")
    return ""


def closed_rows(out):
    """The closed-model rows of the run in out (results.csv), or [] where it has none."""
    path = os.path.join(out, "results.csv")
    return read_csv(path) if os.path.exists(path) else []


def section(out):
    """The results.md section for DIR/overload.csv, or "" when the run has none."""
    rows = ov.read_csv(os.path.join(out, "overload.csv"))
    if not rows:
        return ""
    timeouts = ", ".join(sorted({r["timeout_s"] for r in rows if r.get("timeout_s")}))
    durations = ", ".join(sorted({r["duration_s"] for r in rows if r.get("duration_s")}))
    json_only = sum(1 for r in rows if r.get("source") == "json")
    probed = any(r.get("handover_ns") for r in rows)
    L = ["\n## Overload at fixed arrival rates (open model)\n",
         f"oha {OHA_VERSION}, `--latency-correction`, client timeout {timeouts} s, {durations} s per point: every "
         f"configuration at the same rates, {' and '.join(f'{round(f * 100)} %' for f in ov.FRACTIONS)} of "
         f"{REFERENCE}'s closed-model capacity on the workload (the lowest capacity where it has none). "
         + short_note(rows) +
         "Each request is in one column: lost = 503 + other status + client timeout (oha's connect timeout too) + "
         "connection error + 2xx later than the timeout (timed from when it was due); cut off = still open when the "
         "run ended (not a loss: the run ended, not the server). Connections: offered rate × (timeout + 0.5 s), at "
         f"most {round(ov.openload.FD_SHARE * 100)} % of the file-descriptor limit; where that binds, the client "
         "sends fewer than offered /s × duration (sent), and what it sends late counts as late. In time = 2xx "
         "within the timeout; /s = in time ÷ "
         "duration. p50/p99 of the 2xx answered in time. oha keeps no headers, so a 503 with `Retry-After` cannot be "
         "told from one without. Rows with the largest share lost first." + rounds_note(rows) +
         (f" {json_only} row(s) from oha's JSON alone (no SQLite rows): every 2xx counted in time, percentiles over "
          "all answers." if json_only else "")
         + (" Host ns: the host's cross-core hand-over before / after the point, every instance idle (`*`: the host "
            "changed state during it); a target comparing two rows measured in two states (probes more than 2x "
            f"apart) is undecided within {hostprobe.STATE_EFFECT}x of its goal (decision 0032)." if probed else "")
         + "\n",
         "| workload | offered /s | load | config | lost | 503 | other | timeouts | conn. errors | late 2xx | cut off | "
         "sent | in time | in time /s | own capacity /s | p50 | p99 |" + (" host ns |" if probed else ""),
         "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
         + ("---:|" if probed else "")]

    def share(r):
        return (not r.get("failed"), -(num(r.get("losses")) or 0) / max(1.0, num(r.get("sent")) or 1.0))
    several = rounds(rows) > 1
    for r in sorted(rows, key=share):
        load = f"{round(float(r['fraction']) * 100)} % of {r['reference']} {r['capacity_rps']}"
        cf = config_label(r, several)
        head = f"| {r['workload']} | {r['target_rps']} | {load} | {cf} |"
        if r.get("failed"):
            L.append(head + f" **failed**: {r['failed'].replace('|', '/')} |" + " – |" * (13 if probed else 12))
            continue
        L.append(head + "".join(f" {r.get(k) or 0} |" for k in ("losses", "s503", "other_non2xx", "timeouts",
                                                                 "conn_errors", "ok_late", "cut_off", "sent",
                                                                 "ok_in_time"))
                 + f" {r['ok_per_s']} | {r.get('own_capacity_rps') or '–'} | {r.get('p50_ms') or '–'} | "
                   f"{r.get('p99_ms') or '–'} |"
                 + (f" {hostprobe.cell(r.get('handover_ns'), r.get('handover_ns_after'))} |" if probed else ""))
    L += accounting_table(rows)
    L += server_table(rows)
    L += ["\n### Targets at overload\n",
          f"{DEFAULT_VIRTUAL} (the default virtual configuration, `plan.DEFAULT_VIRTUAL`) against {REFERENCE} at each "
          f"point; a ratio within the A/A spread ({' : '.join(aa_pair({r['config'] for r in rows}))} at the same point) "
          "of its goal is "
          f"undecided; a failed point is MISSED; the 503 target applies only where {REFERENCE} answered every request "
          "in time.\n", "| target | measured | verdict |", "|---|---|---|"]
    L += [f"| {t} | {m} | {v if v in ('met', 'not applicable', 'not measured') or v.startswith('undecided') else '❌ ' + v} |"
          for t, m, v in targets(rows, closed=closed_rows(out))]
    pts = list(dict.fromkeys(rate_point(r) for r in rows if not r.get("failed")))
    L.append("\nAnswers in time per second over the run, one line per configuration and round: "
             + ", ".join(f"[{w} {round(fr * 100)} %](overload-{w}-{round(fr * 100)}.svg)" for w, fr in pts) + ".")
    L.append("\nRaw numbers: [overload.csv](overload.csv), per second [overload-series.csv](overload-series.csv)"
             + (", the server's admission every 2 s [overload-admission.csv](overload-admission.csv)"
                if any(r.get("watch_samples") for r in rows) else "")
             + "; oha's JSON per point in `wrk/oha-overload-*.json`.\n")
    return "\n".join(L)

