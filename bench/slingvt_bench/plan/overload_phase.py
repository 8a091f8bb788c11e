"""The open-model overload phase of ./sling-vt bench (issue #27): its options, and every configuration driven by oha
at the same fixed rates above kernel-200's capacity, with the server's HTTP counters read before each point and after
its drain. The pure parts (categories, series, identities) are in overload_open.py, the report in
overload_open_report.py."""
import os
import time

from slingvt_bench.core import open_rows, overload_rows
from slingvt_bench.core.common import BenchError, log
from slingvt_bench.core.estimate import minutes, overload_seconds
from slingvt_bench.core.httpget import get_json, http_get
from slingvt_bench.core.setups import CONFIGS, DRAIN_TIMEOUT, WORKLOADS, WORK_PATH, points_of, serves, urls
from slingvt_bench.load import overload_oha as ov
from slingvt_bench.load.oha import target
from slingvt_bench.load.points import ensure_running, note_failure
from slingvt_bench.load.runner import run_oha
from slingvt_bench.plan.plans import FULL, add_decisive_args, check_decisive_args, phase_configs, phase_instances
from slingvt_bench.samples import hostprobe, overload_watch as watch
from slingvt_bench.samples.sampling import wait_quiet
from slingvt_bench.verdicts import judge, overload_decisive

HTTP_STATUS = "/system/console/status-slingvt-http.json"
ADMIN = "admin:admin"
IDLE_WAIT_S = 60  # after the drain probe: until only the status request itself is in flight and nothing queued


def add_args(ap):
    ap.add_argument("--overload-duration", type=int,
                    help=f"seconds per open-model overload point (default {overload_rows.DURATION_S}; --quick: "
                         f"{overload_rows.QUICK_DURATION_S}, and the report says so)")
    ap.add_argument("--overload-timeout", type=int, default=overload_rows.TIMEOUT_S,
                    help=f"oha's per-request timeout in the overload points, seconds (default {overload_rows.TIMEOUT_S})")
    ap.add_argument("--overload-rounds", type=int, default=1,
                    help="rounds of every overload point, one after the other in this sitting with the configurations "
                         "interleaved in each; the comparisons with kernel-200 take the median of the per-round ratios, the "
                         "target against the default's own capacity its median round (default 1)")
    add_decisive_args(ap, "overload", "overload", "--overload-rounds",
                      "the decisive overload points (a target of the default within 15 %% or twice the A/A spread of "
                      "its goal, the client with connections to spare)", FULL["overload_decisive_points"])
    ap.add_argument("--no-overload", action="store_true",
                    help="skip the open-model overload (every configuration at 130 %% and 200 %% of kernel-200's "
                         "capacity)")
    ap.add_argument("--only-overload", action="store_true",
                    help="with --append DIR: only the open-model overload, on the capacities in DIR/results.csv "
                         "(configurations and workloads default to those of DIR)")


def check_args(args, earlier_rows, plan):
    """--only-overload needs --append; its plan defaults to the configurations and workloads of the earlier run."""
    if args.only_overload and not args.append:
        raise BenchError("--only-overload works on an earlier run: give it --append DIR")
    if args.only_overload and args.no_overload:
        raise BenchError("--only-overload and --no-overload exclude each other")
    if args.overload_duration is None:
        args.overload_duration = overload_rows.QUICK_DURATION_S if args.quick else overload_rows.DURATION_S
    check_decisive_args(args, plan, "overload", 3)
    if args.overload_duration < 1 or args.overload_timeout < 1 or args.overload_rounds < 1:
        raise BenchError("--overload-duration, --overload-timeout and --overload-rounds must be 1 or more")
    if args.only_overload:
        if not args.configs:
            plan["configs"] = list(dict.fromkeys(r["config"] for r in earlier_rows))
        if not args.workloads:
            plan["workloads"] = [w for w in dict.fromkeys(r["workload"] for r in earlier_rows)
                                 if w in WORKLOADS and w not in {x[0] for x in plan["extra"]} and w != "park10s"]
        plan["extra"] = []


def status(inst):
    return get_json(inst.url + HTTP_STATUS, timeout=30, auth=ADMIN)


def drain(inst, has_counters):
    """Waits until the instance is idle (CPU, then a light request through, then the counters show nothing but the
    status read in flight and nothing queued); returns (the last status or None, own requests by outcome)."""
    own = {"admitted": 0, "rejected": 0}
    wait_quiet(inst.pid, DRAIN_TIMEOUT)
    code, _ = http_get(inst.url + WORK_PATH, timeout=DRAIN_TIMEOUT)
    if code == 503:
        own["rejected"] += 1
    elif code is not None:
        own["admitted"] += 1
    if not has_counters:
        return None, own
    deadline, s = time.time() + IDLE_WAIT_S, None
    while True:
        s = status(inst)
        if s is None:
            return None, own
        own["admitted"] += 1  # the console is never queued or refused: every status read is admitted and counted
        if (int(s.get("inFlight", 0)) <= 1 and int(s.get("queued", 0)) == 0) or time.time() > deadline:
            return s, own
        time.sleep(0.5)


def run(args, live, plan, rows, pdir, out):
    """Every workload at ov.FRACTIONS of the reference's capacity, configurations interleaved per rate, the whole
    sequence --overload-rounds times (a drift of the machine then hits every round's points alike); overload.csv and
    overload-series.csv rewritten after every point. A run that fails gives a failed row."""
    path, spath = os.path.join(out, "overload.csv"), os.path.join(out, "overload-series.csv")
    wpath = os.path.join(out, "overload-admission.csv")
    everyone, live = live, phase_instances(args, plan, "overload_configs", live)
    live = live + [i for i in everyone if i not in live and any(joins(args, plan, i.name, w) for w in plan["workloads"])]
    done, series, watched = overload_rows.read_csv(path), overload_rows.read_csv(spath), overload_rows.read_csv(wpath)
    again = {(i.name, w) for i in live for w in plan["workloads"]}
    done = [r for r in done if (r["config"], r["workload"]) not in again]
    series = [r for r in series if (r["config"], r["workload"]) not in again]
    watched = [r for r in watched if (r["config"], r["workload"]) not in again]
    timeout = args.overload_timeout
    n, extra, duration = planned(args, plan, [i.name for i in live])
    log(f"overload: {n} points of {duration} s (timeout {timeout} s) plus drains, about "
        f"{minutes(overload_seconds(n, duration))}"
        + (f"; then up to {extra} at decisive points, {minutes(overload_seconds(extra, duration))}" if extra else ""))
    files = dict(path=path, spath=spath, wpath=wpath, series=series, watched=watched)
    for rnd in range(1, args.overload_rounds + 1):
        run_round(args, live, plan, rows, pdir, rnd, done, files)
    last = args.overload_decisive_rounds
    if last > args.overload_rounds:
        # Only the points this invocation measured: --append keeps other workloads' and configurations' rows.
        close = overload_decisive.decisive_points([r for r in done if (r["config"], r["workload"]) in again],
                                                  args.overload_decisive_points)
        log(f"overload decisive points (a target within {100 * judge.DECISIVE_MARGIN:.0f} % or twice the "
            f"A/A spread of its goal, connections to spare): "
            + (f"{', '.join(f'{w} {round(fr * 100)} %' for w, fr in close)}; rounds {args.overload_rounds + 1}..{last} "
               "there" if close else "none"))
        for rnd in range(args.overload_rounds + 1, last + 1) if close else []:
            run_round(args, live, plan, rows, pdir, rnd, done, files, only=set(close))


def planned(args, plan, names):
    """(runs of the first rounds, runs at decisive points at most, seconds per run) for the configurations named
    (phase_instances has already narrowed them to the phase's)."""
    n = args.overload_rounds * sum(len(points_of(w, overload_rows.FRACTIONS, "overload_fractions"))
                                   for w in plan["workloads"] for c in names if serves(c, w) and joins(args, plan, c, w))
    extra = max(0, args.overload_decisive_rounds - args.overload_rounds) * len(names) \
        * min(args.overload_decisive_points, len(overload_rows.FRACTIONS) * len(plan["workloads"]))
    return n, extra, args.overload_duration


def joins(args, plan, name, wname):
    """Whether a configuration takes part in the overload of a workload: one of the phase's configurations, or one the
    plan adds for that workload alone (overload_also: unbounded at the mixed workload, whose targets compare with it)."""
    return bool(phase_configs(args, plan, "overload_configs", [name])) \
        or name in plan.get("overload_also", {}).get(wname, ())


def run_round(args, live, plan, rows, pdir, rnd, done, files, only=None):
    """One round of the overload points, or of those in only ((workload, fraction)), configurations interleaved."""
    duration, timeout = args.overload_duration, args.overload_timeout
    for wname in plan["workloads"]:
        if only is not None and wname not in {x for x, _ in only}:
            continue
        w = WORKLOADS[wname]
        mine = [i for i in live if serves(i.name, wname) and joins(args, plan, i.name, wname)]
        ref, ref_cap, rates = overload_rows.offered(rows, [i.name for i in mine], wname,
                                                    points_of(wname, overload_rows.FRACTIONS, "overload_fractions"))
        if not rates:
            log(f"overload {wname}: no closed-model capacity to derive the rates from; skipped")
        for fraction, rate in rates:
            if only is not None and (wname, fraction) not in only:
                continue
            conns = ov.connections(rate, timeout, args.fd_limit)
            for inst in mine:
                own_cap = open_rows.capacity(rows, inst.name, wname)
                base = dict(config=inst.name, workload=wname, fraction=fraction, round=rnd, reference=ref,
                            capacity_rps=round(ref_cap, 1), target_rps=round(rate, 1),
                            own_capacity_rps=round(own_cap, 1) if own_cap else "", connections=conns,
                            duration_s=duration, timeout_s=timeout)
                base["closed_cpu_ms_per_answer"] = watch.closed_cpu_ms(rows, inst.name, wname) or ""
                base["closed_client_cpu_pct"] = watch.closed_client_cpu(rows, inst.name, wname)
                try:
                    done.append(point(args, inst, wname, w, fraction, rate, conns, duration, timeout, pdir, base,
                                      files))
                except BenchError as e:
                    log(f"{inst.name}: overload {wname} round {rnd} at {rate:.0f}/s: failed: {e}")
                    if "error" not in inst.info:
                        note_failure(inst, f"overload {wname} at {rate:.0f}/s", e)
                    done.append(overload_rows.failed_row(inst.name, wname, fraction, ref, ref_cap, rate, own_cap, e, rnd))
                overload_rows.write_csv(files["path"], done)
                overload_rows.write_csv(files["spath"], files["series"], overload_rows.SERIES_FIELDS)
                overload_rows.write_csv(files["wpath"], files["watched"], watch.WATCH_FIELDS)
                time.sleep(plan["pause"])


def point(args, inst, wname, w, fraction, rate, conns, duration, timeout, pdir, base, files):
    down = ensure_running(args, inst, pdir)
    if down:
        raise BenchError(down)
    inst.check_alive()
    has_counters = CONFIGS[inst.name].get("ours", False)
    # Idle first, as after the point: requests of the phase before (a closed point's clients stop with thousands
    # queued) still end as admitted or abandoned for a few seconds and would count as this point's arrivals.
    before, _ = drain(inst, has_counters)
    # The host's state while every instance is idle, before the point and after its drain (hostprobe).
    handover0 = hostprobe.measure(getattr(args, "hostprobe", None))
    rnd = base["round"]
    name = f"oha-overload-{inst.name}-{wname}-{int(round(fraction * 100))}" + (f"-r{rnd}" if rnd > 1 else "")
    db, out_json = os.path.join(pdir, name + ".db"), os.path.join(pdir, name + ".json")
    if os.path.exists(db):
        os.remove(db)  # oha appends to an existing table
    url = target(urls(inst.url, w), os.path.join(pdir, name + ".urls"))
    # From the status read before the point to the one after its drain: the CPU of the requests that were still
    # queued or running when oha stopped counts against the completions they made.
    seen = watch.Watch(inst.pid, (lambda: status(inst)) if has_counters else None).start()
    usage = {}
    try:
        summary = run_oha(args, ov.command(args.oha, url, rate, conns, duration, timeout, db), duration, out_json,
                          usage)
    finally:
        seen.stop()
        after, own = drain(inst, has_counters)
        seen.finish()
    own["admitted"] += seen.reads
    answers = ov.read_db(db)
    cats = ov.categories(summary, answers, timeout, duration)
    r = dict(base, **cats, **ov.accounting(before, after, own, cats, has_counters), handover_ns=handover0,
             handover_ns_after=hostprobe.measure(getattr(args, "hostprobe", None)), **usage)
    r.update(watch.summary(seen, r.get("completed") if r.get("counters") == "yes" else
                           cats["ok_in_time"] + cats["ok_late"]))
    for sec, ok, s503, other in ov.per_second(answers, timeout, duration) if answers is not None else []:
        files["series"].append(dict(config=inst.name, workload=wname, fraction=fraction, round=rnd, second=sec,
                                    ok_in_time=ok, s503=s503, other=other))
    files["watched"] += [dict(config=inst.name, workload=wname, fraction=fraction, round=rnd, **s)
                         for s in seen.samples]
    if os.path.exists(db):
        os.remove(db)  # per request: up to 8,000/s x 60 s rows; the per-second series keeps what the plots need
    log(f"{inst.name}: overload {wname} round {rnd} at {r['target_rps']}/s ({int(round(fraction * 100))} % of "
        f"{base['reference']}'s {base['capacity_rps']}): {r['ok_per_s']}/s in time; sent {r['sent']}, in time "
        f"{r['ok_in_time']}, late {r['ok_late']}, 503 {r['s503']}, other {r['other_non2xx']}, timeouts {r['timeouts']}, connection errors "
        f"{r['conn_errors']}, cut off {r['cut_off']}; p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms; server arrived "
        f"{r.get('server_arrived', '–')} ({r.get('abandoned', '–')} of them abandoned while waiting; identity "
        f"{r['arrived_identity']}), admitted identity "
        f"{r['admitted_identity']}; CPU {r['cpu_pct']} %, {r['cpu_ms_per_completed']} ms per completed request "
        f"(closed-model capacity point: {base['closed_cpu_ms_per_answer'] or '–'} ms); oha CPU "
        f"{r.get('client_cpu_pct') or '–'} % (wrk at that point: {base['closed_client_cpu_pct'] or '–'} %); limit "
        f"{r['limit_min']}–{r['limit_max']}, in flight median {r['in_flight_median']}, queued max {r['queued_max']}; "
        f"host hand-over {r['handover_ns'] or '-'} / {r['handover_ns_after'] or '-'} ns")
    return r
