"""The open-model phase below capacity of ./sling-vt bench: its options, and every configuration driven by oha at the
same fixed arrival rates per workload (openload.offered_rates), then more rounds at the points of the p99 target
(open_rounds.decisive_points)."""
import os
import time

from slingvt_bench.core import open_rows
from slingvt_bench.core.common import BenchError, log
from slingvt_bench.core.estimate import minutes, open_seconds
from slingvt_bench.core.httpget import http_get
from slingvt_bench.core.setups import DRAIN_TIMEOUT, WORKLOADS, WORK_PATH, points_of, serves, urls
from slingvt_bench.load import oha as openload
from slingvt_bench.load.points import ensure_running, note_failure
from slingvt_bench.load.runner import run_oha
from slingvt_bench.plan.plans import FULL, add_decisive_args, check_decisive_args, phase_instances
from slingvt_bench.samples import hostprobe
from slingvt_bench.samples.sampling import wait_quiet
from slingvt_bench.verdicts import open_rounds


def add_args(ap):
    ap.add_argument("--no-open-model", action="store_true",
                    help="skip the open-model latency (oha, every configuration at 50 %% and 90 %% of "
                         "kernel-200's capacity)")
    add_decisive_args(ap, "open", "open-model", "the open model's first round",
                      "the points of the p99 target closest to their goal (bench/METHOD.md: Open-model rounds)",
                      FULL["open_decisive_points"])


def check_args(args, plan):
    check_decisive_args(args, plan, "open", 10)


def run(args, live, plan, rows, pdir, out):
    """After the closed-model grid: one round of every workload at openload.FRACTIONS of the reference's capacity,
    then the decisive points again until they have --open-decisive-rounds (only the configurations the p99 target
    compares, open_rounds.COMPARED). openmodel.csv is rewritten after every run; a run that fails, or a
    configuration that is down and cannot be restarted, gives a failed row."""
    path = os.path.join(out, "openmodel.csv")
    # --append: the rates measured before stay; a configuration and workload measured again replaces them.
    done = open_rows.read_csv(path) if getattr(args, "append", None) else []
    live = phase_instances(args, plan, "open_configs", live)
    again = {(i.name, w) for i in live for w in plan["workloads"]}
    done = [r for r in done if (r["config"], r["workload"]) not in again]
    last = getattr(args, "open_decisive_rounds", 1)
    n, extra, duration = planned(args, plan, [i.name for i in live])
    log(f"open model: {n} runs of {duration} s plus drains, about {minutes(open_seconds(n, duration))}"
        + (f"; then up to {extra} at decisive points, {minutes(open_seconds(extra, duration))}" if extra else ""))
    run_round(args, live, plan, rows, pdir, path, done, 1)
    if last > 1:
        # Only the points this invocation measured: --append keeps other workloads' and configurations' rows.
        close = open_rounds.decisive_points([r for r in done if (r["config"], r["workload"]) in again],
                                            args.open_decisive_points, closed=rows)
        log("open model points with more rounds (closest to the goal first, at most "
            f"{args.open_decisive_points}): "
            + (f"{', '.join(f'{w} {round(fr * 100)} %' for w, fr in close)}; rounds 2..{last} there" if close
               else "none"))
        compared = [i for i in live if i.name in open_rounds.COMPARED]
        for rnd in range(2, last + 1) if close else []:
            run_round(args, compared, plan, rows, pdir, path, done, rnd, only=set(close))


def planned(args, plan, names):
    """(runs of the first round, runs at decisive points at most, seconds per run) for the configurations named
    (phase_instances has already narrowed them to the phase's)."""
    fractions, duration = rates_and_duration(args, plan)
    n = sum(len(points_of(w, fractions, "open_fractions")) for w in plan["workloads"] for c in names if serves(c, w))
    extra = (getattr(args, "open_decisive_rounds", 1) - 1) * sum(1 for c in names if c in open_rounds.COMPARED) \
        * min(getattr(args, "open_decisive_points", 0), len(fractions) * len(plan["workloads"]))
    return n, extra, duration


def rates_and_duration(args, plan):
    """(the fractions of the reference's capacity, seconds per run); --quick: the 90 % rate only, 10 s each, so
    that the quick run stays under 10 minutes."""
    return ((0.9,), 10) if args.quick else (open_rows.FRACTIONS, plan.get("open_duration", open_rows.DURATION_S))


def run_round(args, live, plan, rows, pdir, path, done, rnd, only=None):
    """One round of the open model, or of the points in only ((workload, fraction)), configurations interleaved per
    rate, each run followed by the drain."""
    fractions, duration = rates_and_duration(args, plan)
    for wname in plan["workloads"]:
        w = WORKLOADS[wname]
        mine = [i for i in live if serves(i.name, wname)]
        ref, ref_cap, rates = open_rows.offered_rates(rows, [i.name for i in mine], wname,
                                                      points_of(wname, fractions, "open_fractions"))
        for fraction, rate in rates:
            if only is not None and (wname, fraction) not in only:
                continue
            conns = open_rows.connections(rate, w["r_ms"], args.fd_limit)
            # The first configuration rotates with the round, so that none is always measured first after a drain.
            for inst in mine[(rnd - 1) % len(mine):] + mine[:(rnd - 1) % len(mine)]:
                done.append(measure(args, inst, wname, w, fraction, rate, conns, duration, ref, ref_cap,
                                    open_rows.capacity(rows, inst.name, wname), pdir, rnd))
                open_rows.write_csv(path, done)
                if not done[-1].get("failed"):
                    wait_quiet(inst.pid, DRAIN_TIMEOUT)
                    http_get(inst.url + WORK_PATH, timeout=DRAIN_TIMEOUT)
                    done[-1]["handover_ns_after"] = hostprobe.measure(getattr(args, "hostprobe", None))
                    open_rows.write_csv(path, done)
                    time.sleep(plan["pause"])


def measure(args, inst, wname, w, fraction, rate, conns, duration, ref, ref_cap, own, pdir, rnd):
    """One fixed-rate run: its row, or a failed row with the reason."""
    try:
        down = ensure_running(args, inst, pdir)
        if down:
            raise BenchError(down)
        inst.check_alive()
        name = f"oha-{inst.name}-{wname}-{int(fraction * 100)}" + (f"-r{rnd}" if rnd > 1 else "")
        url = openload.target(urls(inst.url, w), os.path.join(pdir, name + ".urls"))
        # The host's state before the run, every instance idle (hostprobe); after it once the drain is done.
        handover0 = hostprobe.measure(getattr(args, "hostprobe", None))
        summary = run_oha(args, openload.command(args.oha, url, rate, conns, duration), duration,
                          os.path.join(pdir, name + ".json"))
    except (openload.OpenLoadError, BenchError) as e:
        log(f"{inst.name}: open model {wname} round {rnd} at {rate:.0f}/s: failed: {e}")
        if "error" not in inst.info:
            note_failure(inst, f"open model {wname} at {rate:.0f}/s", e)
        return dict(open_rows.failed_row(inst.name, wname, fraction, ref, ref_cap, rate, own, e), round=rnd)
    r = dict(open_rows.row(inst.name, wname, fraction, ref_cap, rate, conns, duration, summary, ref, own), round=rnd,
             handover_ns=handover0)
    log(f"{inst.name}: open model {wname} round {rnd} at {r['target_rps']}/s ({int(fraction * 100)} % of {ref}'s "
        f"{r['capacity_rps']}; own capacity {r['own_capacity_rps']}): {r['achieved_rps']}/s, p50 {r['p50_ms']} ms, "
        f"p99 {r['p99_ms']} ms, p99.9 {r['p999_ms']} ms, errors {r['errors']}, non-2xx {r['non2xx']}")
    return r
