"""results.md's tables of the open-model overload per measured row: the accounting against the server's counters
and the server's CPU and admission during each point."""
from slingvt_bench.core.rows import num, round_of


def rounds(rows):
    return max((round_of(r) for r in rows), default=1)


def config_label(r, several):
    """The configuration of a row, with its round where the run measured more than one."""
    return r["config"] + (f" (round {round_of(r)})" if several else "")


def accounting_table(rows):
    L = ["\n### Accounting against the server's counters\n",
         "`/system/console/status-slingvt-http.json` before each point and after its drain (CPU quiet, a light "
         "request through, then until only the status read is in flight and nothing is queued), net of the "
         "benchmark's own requests. Arrived = admitted + rejected + abandoned (dropped unstarted because the client "
         "closed its connection while the request waited for admission); it holds when the client's answers ≤ "
         "arrived ≤ the client's sent count (the client cannot tell which of its timed-out, failed or cut-off requests reached "
         "the server). Admitted holds when completed + in flight + queued = admitted at the end. Kernel "
         "configurations count only what reaches Sling VT's handler, i.e. what got a pool thread (a request Jetty "
         "dropped from its queue is never counted); a configuration without Sling VT's handler has no counters.\n",
         "| workload | offered /s | config | sent | answered | arrived (server) | admitted | rejected | abandoned | "
         "completed | "
         "in flight / queued at end | own requests | arrived identity | admitted identity |",
         "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|"]
    several = rounds(rows) > 1
    for r in rows:
        if r.get("failed"):
            continue
        cf = config_label(r, several)
        if r.get("counters") != "yes":
            L.append(f"| {r['workload']} | {r['target_rps']} | {cf} | {r['sent']} | – | {r['counters']} |"
                     + " – |" * 8)
            continue
        L.append(f"| {r['workload']} | {r['target_rps']} | {cf} | {r['sent']} | {r['client_answered']} | "
                 f"{r['server_arrived']} | {r['admitted']} | {r['rejected']} | {r.get('abandoned', '–')} | "
                 f"{r['completed']} | "
                 f"{r['in_flight']} / {r['queued']} | {r['own_requests']} | {r['arrived_identity']} | "
                 f"{r['admitted_identity']} |")
    return L


def server_table(rows):
    """The server during each point (overload_watch): CPU per completed request against the same configuration's at
    its closed-model capacity point, and the admission it held; empty for runs recorded before the bench read it."""
    mine = [r for r in rows if not r.get("failed") and r.get("cpu_ms_per_completed") not in (None, "")]
    if not mine:
        return []
    L = ["\n### The server during each point\n",
         "Process CPU from the status read before the point until the server is idle after its drain, per request "
         "the server completed (the client's answers where it has no counters); the same configuration's CPU per "
         "answer at its closed-model capacity point (the one the 90 % target divides by) beside it. More CPU per "
         "answer at overload than at capacity lowers what the server can complete whatever its admission does. "
         "Client CPU: the load generator's (oha here, wrk at the capacity point), read from /proc while it ran, in % of "
         "one CPU: on 2 cores it shares the CPUs with the server. Limit, in flight and queued: the status JSON every 2 s while oha ran (`concurrencyLimit` is a fixed cap or "
         "a pool's size outside `auto`). Held: in flight and queued together, one of the client's connections each; "
         "the client ran out of them where it held all but 5 % (bench/METHOD.md: Client out of connections).\n",
         "| workload | offered /s | config | CPU % | client CPU % (at capacity) | ms CPU per completed | at capacity | "
         "ratio | limit | "
         "in flight (median) | queued (max) | held (median) of connections |",
         "|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    several = rounds(rows) > 1
    for r in mine:
        over, closed = num(r.get("cpu_ms_per_completed")), num(r.get("closed_cpu_ms_per_answer"))
        ratio = f"{over / closed:.2f}×" if over and closed else "–"
        limit = f"{r['limit_min']}–{r['limit_max']}" if r.get("limit_min") not in (None, "") else "–"
        client = (f"{r.get('client_cpu_pct') or '–'} ({r.get('closed_client_cpu_pct') or '–'})"
                  if r.get("client_cpu_pct") not in (None, "") else "–")
        L.append(f"| {r['workload']} | {r['target_rps']} | {config_label(r, several)} | {r.get('cpu_pct') or '–'} | "
                 f"{client} | {r['cpu_ms_per_completed']} | {r.get('closed_cpu_ms_per_answer') or '–'} | {ratio} | {limit} | "
                 f"{r.get('in_flight_median') or '–'} | {r.get('queued_max') or '–'} | {held_of(r)} |")
    return L


def held_of(row):
    """'7,995 of 8,000': the requests the server held (median of the samples) of the client's connections."""
    held, conns = num(row.get("held_median")), num(row.get("connections"))
    return f"{held:,.0f} of {conns:,.0f}" if held is not None and conns else "–"
