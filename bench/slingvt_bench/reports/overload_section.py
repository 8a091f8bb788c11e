"""results.md: the overload section (open model above capacity) and its targets."""
import os

from slingvt_bench.core import open_rows, overload_rows as ov
from slingvt_bench.core.rows import num, rate_point, read_csv, round_of
from slingvt_bench.core.setups import DEFAULT_VIRTUAL, OHA_VERSION, REFERENCE, aa_pair
from slingvt_bench.reports import host_table
from slingvt_bench.reports.overload_tables import accounting_table, config_label, rounds, server_table
from slingvt_bench.verdicts import host_state
from slingvt_bench.verdicts.judge import DECISIVE_MARGIN, ratios_only
from slingvt_bench.verdicts.overload import targets


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
            "the twins' largest difference over the rounds (bench/METHOD.md: Paired overload rounds), the target against the default's own "
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
         f"most {round(open_rows.FD_SHARE * 100)} % of the file-descriptor limit; where that binds, the client "
         "sends fewer than offered /s × duration (sent), and what it sends late counts as late. In time = 2xx "
         "within the timeout; /s = in time ÷ "
         "duration. p50/p99 of the 2xx answered in time. oha keeps no headers, so a 503 with `Retry-After` cannot be "
         "told from one without. Rows with the largest share lost first." + rounds_note(rows) +
         (f" {json_only} row(s) from oha's JSON alone (no SQLite rows): every 2xx counted in time, percentiles over "
          "all answers." if json_only else "")
         + (" Host ns: the host's cross-core hand-over before / after the point, every instance idle (`*`: the host "
            "changed state during it); a target comparing two rows measured in two states (probes more than 2x "
            f"apart) is undecided within {host_state.STATE_EFFECT}x of its goal (bench/METHOD.md: One host state)." if probed else "")
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
                 + (f" {host_table.cell(r.get('handover_ns'), r.get('handover_ns_after'))} |" if probed else ""))
    L += accounting_table(rows)
    L += server_table(rows)
    L += ["\n### Targets at overload\n",
          f"{DEFAULT_VIRTUAL} (the default virtual configuration, `plan.DEFAULT_VIRTUAL`) against {REFERENCE} at each "
          f"point; a ratio within the A/A spread ({' : '.join(aa_pair({r['config'] for r in rows}))} at the same point) "
          "of its goal is "
          f"undecided; a failed point is MISSED; the 503 target applies only where {REFERENCE} answered every request "
          "in time.\n", "| target | measured | verdict |", "|---|---|---|"]
    L += [f"| {t} | {m} | {v if v in ('met', 'not applicable', 'not measured') or v.startswith(('undecided', 'ratio')) else '❌ ' + v} |"
          for t, m, v in ratios_only(targets(rows, closed=closed_rows(out)), {r["config"] for r in rows})]
    pts = list(dict.fromkeys(rate_point(r) for r in rows if not r.get("failed")))
    L.append("\nAnswers in time per second over the run, one line per configuration and round: "
             + ", ".join(f"[{w} {round(fr * 100)} %](overload-{w}-{round(fr * 100)}.svg)" for w, fr in pts) + ".")
    # The per-second files are raw output: `--docs` leaves them in the run's folder, so they are named, not linked.
    L.append("\nRaw numbers: [overload.csv](overload.csv); in the run's output folder (not copied by `--docs`): per "
             "second `overload-series.csv`"
             + (", the server's admission every 2 s `overload-admission.csv`"
                if any(r.get("watch_samples") for r in rows) else "")
             + ", oha's JSON per point `wrk/oha-overload-*.json`.\n")
    return "\n".join(L)
