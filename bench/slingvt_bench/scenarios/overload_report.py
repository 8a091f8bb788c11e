"""results.json of ./sling-vt overload -> results.md."""
import json



# ---------------------------------------------------------------------------------------------- report
def markdown(results):
    m = results["machine"]
    lines = [f"# Overload and slow-client protection ({m['date']})", "",
             f"{m['nproc']} CPUs, {m['mem_gib']} GiB, {m['jdk']}; fd limit {m['fd_limit']}; "
             f"load generator: bench/overload.py (asyncio, one process) on the same machine. "
             f"Elapsed {results.get('elapsed_s')} s.", ""]
    b = results.get("bounded", {})
    if "load" in b:
        c, ld, s, ch = b["config"], b["load"], b["server"], b["checks"]
        lines += ["## Bounded: cap {cap}, queue {queue}, queue timeout {qt} ms, {xmx}".format(
            cap=c["cap"], queue=c["queue"], qt=c["queue_timeout"], xmx=c["xmx"]), "",
            f"{c['clients']:,} keep-alive clients for {c['duration']} s, `{c['path']}` (a 503 is retried after its "
            f"Retry-After).", "",
            "| sent | 200 | 503 (gate) | other | connection errors/resets | peak in-flight | server admitted / rejected (delta) |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {ld['sent']:,} | {ld['ok']:,} | {ld['gate503']:,} | {ld['other']} | {ld['errors']} | "
            f"{s['after']['peakInFlight']} | {b['accounting']['admitted_delta']:,} / {b['accounting']['rejected_delta']:,} |",
            "",
            f"- OS threads max {s['sampled']['threads_max']}, RSS max {s['sampled']['rss_max_mib']} MiB, heap after a "
            f"full GC at 80 % of the run {ld['heap_after_gc_at_80pct_mib']} MiB (of {c['xmx']}).",
            f"- Latency 200: p50 {ld['ok_latency_ms']['p50']} ms, p99 {ld['ok_latency_ms']['p99']} ms; 503: p50 "
            f"{ld['r503_latency_ms']['p50']} ms, p99 {ld['r503_latency_ms']['p99']} ms. Retry-After values: "
            f"{ld['retry_after_values']}.",
            f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
            f"{len(ch['error_entries'])}.", ""]
    elif b:
        lines += ["## Bounded", "", f"failed: {b.get('error')}", ""]
    u = results.get("unbounded", {})
    if "load" in u:
        ld, ch = u["load"], u["checks"]
        lines += [f"## Unbounded: parked requests, {u['config']['xmx']}", "",
                  f"fd limit {u['idle']['fd_limit']:,} per process; the idle server holds {u['idle']['fds']} fds, so "
                  f"{u['idle']['planned']:,} requests (`idleDelay={u['config']['idle_delay']}`) were sent in batches "
                  f"of {u['config']['batch']:,}.", "",
                  "| parked at once | 200 | errors/other | OS threads while parked | RSS | heap used / after full GC | normal request while parked |",
                  "|---:|---:|---:|---:|---:|---:|---:|",
                  f"| {ch['parked_at_once']:,} | {ld['ok']:,} | {ld['errors']} / {ld['other']} | "
                  f"{ch['threads_max_while_parked']} (idle {u['idle']['threads']}) | {ld['rss_mib_while_parked']} MiB | "
                  f"{ld['heap_used_committed_mib_while_parked'][0]} / {ld['heap_after_gc_mib_while_parked']} MiB | "
                  f"{ld['normal_while_parked']['status']} in {ld['normal_while_parked']['ms']} ms |", "",
                  "- Ramp: " + ", ".join(f"{x['requests']:,} @ {x['at_s']} s ({x['threads']} thr, {x['rss_mib']} MiB)"
                                          for x in ld["batches"]), "",
                  f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
                  f"{len(ch['error_entries'])}.", ""]
        if ld["error_examples"] or ld["other_examples"]:
            lines += [f"- Examples: {ld['error_examples'] + ld['other_examples']}", ""]
    elif u:
        lines += ["## Unbounded", "", f"failed: {u.get('error')}", ""]
    s = results.get("slowloris", {})
    if "load" in s:
        ld, ch, c = s["load"], s["checks"], s["config"]
        sl = ld["slow"]["closed_after_last_byte_s"]
        lines += [f"## Slowloris: Felix idle timeout {c['idle_timeout_ms']} ms", "",
                  f"{c['slow']:,} connections send `GET /bin/vt/work.json HTTP/1.1`, `Host` and part of a header; "
                  f"half stop, half send one more byte every {c['slow_trickle_s']} s.", "",
                  "| closed by the server | time to close after last byte (min / median / p99 / max) | how | OS threads idle → held | normal request while held |",
                  "|---:|---:|---|---:|---:|",
                  f"| {ld['slow']['closed']:,} of {ld['slow']['count']:,} | {sl['min']} / {sl['median']} / {sl['p99']} / "
                  f"{sl['max']} s | {ld['slow']['how']} | {max(x or 0 for x in ld['threads_idle'])} → "
                  f"{max(x or 0 for x in ld['threads_held'])} | {ld['normal_while_held']['status']} in "
                  f"{ld['normal_while_held']['ms']} ms |", "",
                  f"- Faster than the idle timeout, 1 byte every {c['fast_trickle_s']} s ({c['fast']} connections, "
                  f"{c['fast_observe_s']} s): {ld['fast_1byte_per_s']['how']}, up to {ld['fast_1byte_per_s']['bytes_max']} "
                  f"bytes sent; still open when the slow ones had all been closed: "
                  f"{ld['fast_1byte_per_s']['open_when_slow_ones_were_closed']}.",
                  f"- {c['big_bytes']} header bytes every {c['fast_trickle_s']} s ({c['big']} connections, "
                  f"{c['big_observe_s']} s): {ld['fast_1000bytes_per_s']['how']}, after up to "
                  f"{ld['fast_1000bytes_per_s']['bytes_max']} bytes / {ld['fast_1000bytes_per_s']['open_s_max']} s.",
                  f"- Checks: {json.dumps({k: v for k, v in ch.items() if k != 'error_entries'})}; ERROR log entries: "
                  f"{len(ch['error_entries'])}.", ""]
    elif s:
        lines += ["## Slowloris", "", f"failed: {s.get('error')}", ""]
    return "\n".join(lines) + "\n"
