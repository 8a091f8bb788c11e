"""./sling-vt bench: the command line, the plan, the rotation of points over side-by-side instances, the report."""
import json
import os
import shutil
import signal
import time

from slingvt_bench.core import estimate, rows as data
from slingvt_bench.core.common import BenchError, RUNNING, free_port, log, on_signal, run_main, stop_all
from slingvt_bench.core.setups import (CONFIGS, DEFAULT_VIRTUAL, EXTRA_POINTS, GC_TAIL_S, WORKLOADS, plan_cpus,
                                       points_of, serves)
from slingvt_bench.instances import confine, pgstore
from slingvt_bench.instances.instance import Instance, check_launch_args, prune_instance_home, snapshot_feature
from slingvt_bench.load import oha as openload
from slingvt_bench.load.points import warmup
from slingvt_bench.load.runner import ensure_wrk
from slingvt_bench.plan import open_phase, options, overload_phase
from slingvt_bench.plan.closed_phase import parse_points, run_rounds, sitting
from slingvt_bench.plan.plans import FULL, FULL_POSTGRES, LATENCY_POSTGRES, QUICK, QUICK_POSTGRES, phase_configs
from slingvt_bench.reports import docs_copy, readme_summary, report
from slingvt_bench.samples import hostprobe
from slingvt_bench.samples.sampling import machine_info, raise_fd_limit
from slingvt_bench.scenarios import metrics_cost
from slingvt_bench.scenarios.latency_runs import latencies_of, run_latencies
from slingvt_bench.verdicts import decisive, judge, ratios


def main():
    args = options.parse()

    if args.readme:
        readme = os.path.join(args.root, "README.md")
        readme_summary.write_readme(args.readme, readme)
        log(f"{readme}: run of record {args.readme} written between the markers; read the text around them")
        return 0

    if args.docs:
        dest = docs_copy.copy(args.docs, args.root, args.docs_name)
        log(f"{dest}: the summary of {args.docs} ({len(os.listdir(dest))} files); its raw files stay where they are")
        return 0

    if args.report_only:
        if not os.path.isfile(os.path.join(args.report_only, "results.csv")):
            raise BenchError(f"--report-only {args.report_only}: no results.csv there")
        out = args.report_only
        if args.out:  # the report beside a copy of the run's summary files, the run's folder left as it is
            out = args.out
            os.makedirs(out, exist_ok=True)
            for n in docs_copy.summary_files(args.report_only) + ["overload-series.csv", "overload-admission.csv"]:
                if os.path.isfile(os.path.join(args.report_only, n)):
                    shutil.copy2(os.path.join(args.report_only, n), os.path.join(out, n))
        report.write_all(out)
        return 0

    args.latency_ms = None
    if args.latency is not None:
        latencies = latencies_of(args)
        if len(latencies) > 1:
            return run_latencies(args, latencies)
        args.latency_ms = latencies[0]
    if args.pool_max is not None and (args.store != "postgres" or args.pool_max < 1 or args.pool_wait_ms < 1):
        raise BenchError("--pool-max N (N >= 1) and --pool-wait-ms M (M >= 1) go with --store postgres")
    if args.latency_ms is not None and not (args.quick or args.configs or args.workloads or args.concurrency):
        plan = dict(LATENCY_POSTGRES)
        args.no_open_model = args.no_overload = True
    elif args.store == "postgres":
        plan = dict(QUICK_POSTGRES if args.quick else FULL_POSTGRES)
    else:
        plan = dict(QUICK if args.quick else FULL)
    if args.configs:
        plan["configs"] = args.configs.split(",")
    if args.workloads:
        plan["workloads"] = args.workloads.split(",")
        plan["extra"] = [x for x in EXTRA_POINTS if x[0] in plan["workloads"]]
    extra_names = {x[0] for x in EXTRA_POINTS}
    plan["workloads"] = [w for w in plan["workloads"] if w not in extra_names]
    if args.concurrency:
        plan["concurrency"] = [int(c) for c in args.concurrency.split(",")]
    if args.decisive_rounds is None:
        args.decisive_rounds = plan.get("decisive_rounds", 1)
    if args.decisive_points is None:
        args.decisive_points = plan.get("decisive_points", 6)
    for k in ("duration", "warmup"):
        if getattr(args, k) is None:
            setattr(args, k, plan[k])
    for c in plan["configs"]:
        if c not in CONFIGS:
            raise BenchError(f"unknown configuration '{c}' (known: {', '.join(CONFIGS)})")
    for w in plan["workloads"] + [x[0] for x in plan["extra"]]:
        if w not in WORKLOADS:
            raise BenchError(f"unknown workload '{w}' (known: {', '.join(WORKLOADS)})")
        if WORKLOADS[w].get("store", args.store) != args.store:
            raise BenchError(f"workload '{w}' needs --store {WORKLOADS[w]['store']}")
        if WORKLOADS[w].get("feature", args.feature) != args.feature:
            if not args.workloads:
                plan["workloads"].remove(w)  # the default plan on --feature lean: without the page
                continue
            raise BenchError(f"workload '{w}' needs --feature {WORKLOADS[w]['feature']}")
    check_launch_args(args, "bench")

    if args.append and args.out:
        raise BenchError("--append DIR writes into DIR: leave out --out")
    if args.append and not os.path.isfile(os.path.join(args.append, "results.csv")):
        raise BenchError(f"--append {args.append}: no results.csv there")
    out = os.path.abspath(args.append or args.out or os.path.join(args.root, ".sling-vt", "bench",
                                                                  time.strftime("%Y%m%d-%H%M%S")))
    os.makedirs(out, exist_ok=True)
    pdir = os.path.join(out, "wrk")
    os.makedirs(pdir, exist_ok=True)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    args.wrk = ensure_wrk()
    args.hostprobe = hostprobe.build(args.root)
    if args.metrics_cost:
        confine.plan(args, plan_cpus(args))
        return metrics_cost.run(args, out, pdir)
    earlier = data.read_csv(os.path.join(out, "results.csv")) if args.append else []
    overload_phase.check_args(args, earlier, plan)
    open_phase.check_args(args, plan)
    if args.only_overload:
        args.no_open_model, args.rounds, args.decisive_rounds = True, 1, 1
    if not args.no_open_model or not args.no_overload:
        try:
            args.oha = openload.ensure_oha(args.root, log)
        except openload.OpenLoadError as e:
            raise BenchError(str(e))
    fd_limit = args.fd_limit = raise_fd_limit()
    pinning = confine.plan(args, plan_cpus(args))
    conc = []
    for c in plan["concurrency"]:
        if c + 2000 > fd_limit:
            log(f"skipping C={c}: the file-descriptor limit is {fd_limit} (needs about {c + 2000})")
        else:
            conc.append(c)
    plan["concurrency"] = conc
    plan["extra"] = [x for x in plan["extra"] if x[1] + 2000 <= fd_limit]
    snapshot_feature(args, out)
    args.pg = None
    if args.store == "postgres":
        args.pg = pgstore.Postgres(args.root, log, RUNNING, latency_ms=args.latency_ms)
        try:
            args.pg.start()
        except (RuntimeError, OSError, ValueError, KeyError) as e:
            args.pg.stop()
            raise BenchError(f"PostgreSQL: {e}")
    meta = dict(machine=machine_info(args, fd_limit, pinning), quick=args.quick, store=args.store,
                feature=args.feature,
                postgres=dict(version=args.pg.version, port=args.pg.port, oak_vars=pgstore.COLD_VARS,
                              latency_ms_one_way=args.latency_ms,
                              pool_max_active=args.pool_max or 50,
                              pool_max_wait_ms=args.pool_wait_ms if args.pool_max else 30000)
                if args.pg else None,
                plan=dict(plan, duration=args.duration, warmup=args.warmup, rounds=args.rounds, gc_tail_s=GC_TAIL_S),
                configs={c: CONFIGS[c]["desc"] for c in plan["configs"]},
                workloads={w: WORKLOADS[w] for w in plan["workloads"] + [x[0] for x in plan["extra"]]}, instances=[])
    grid = [(w, c) for w in plan["workloads"] for c in points_of(w, conc, "concurrency")] + list(plan["extra"])
    if args.points:
        wanted = parse_points(args.points)
        grid = [p for p in grid if p in wanted]
        if not grid:
            raise BenchError(f"--points {args.points}: none of them is in the plan (check --workloads/--concurrency)")
    if args.append:
        with open(os.path.join(out, "meta.json")) as f:
            first = json.load(f)
        meta = dict(first, appended=first.get("appended", []) + [dict(date=meta["machine"]["date"], plan=meta["plan"],
                                                                    configs=meta["configs"], points=args.points,
                                                                    only_overload=args.only_overload)])
    if args.rounds < 1:
        raise BenchError("--rounds must be 1 or more")
    points = 0 if args.only_overload else args.rounds * sum(
        1 for n in plan["configs"] for w, _ in grid if serves(n, w))
    if args.decisive_rounds > args.rounds:
        points += (args.decisive_rounds - args.rounds) * min(args.decisive_points, len(grid)) * len(plan["configs"])
    log(f"output {out}; {pinning}; fd limit {fd_limit}; {len(plan['configs'])} configurations, "
        f"{len(grid)} points, {points} closed-model measurements; {run_estimate(args, plan, points)}")

    rows = list(earlier)  # earlier: only what the run in --append DIR had, for the round numbers
    started = time.time()
    csv_path = os.path.join(out, "results.csv")
    live = []
    try:
        # Every configuration runs at the same time and the points are measured in turn (the order rotates from
        # point to point): a drift of the machine (other tenants, heat) then hits every configuration alike
        # instead of whichever came last. Idle instances cost ~1-2 % of a core each (recorded as others_cpu_pct).
        for name in plan["configs"]:
            home = os.path.join(out, "instances", name)
            if os.path.exists(home):
                shutil.rmtree(home)
            inst = Instance(args, name, home, free_port())
            meta["instances"].append(inst.info)
            live.append(inst)  # also when it fails: run_rounds restarts it or records its points as failed
            try:
                inst.start()
                warmup(args, inst, pdir, plan["workloads"] if args.only_overload else ())
            except BenchError as e:
                log(f"{name}: {e}")
                inst.info["error"] = str(e)
                inst.stop()
        run_rounds(args, plan, live, rows, earlier, pdir, out, meta, started,
                   [] if args.only_overload else [(r, i, wc) for r in range(args.rounds) for i, wc in enumerate(grid)])
        if args.decisive_rounds > args.rounds:
            close = decisive.decisive_points(ratios.Data(rows), grid, DEFAULT_VIRTUAL, meta["machine"].get("nproc"),
                                             args.decisive_points)
            meta["decisive"] = dict(points=[f"{w}:{c}" for w, c in close], rounds=args.decisive_rounds)
            log(f"decisive points (a verdict within {100 * judge.DECISIVE_MARGIN:.0f} % or twice the A/A spread "
                f"of its goal): {', '.join(meta['decisive']['points']) or 'none'}; rounds "
                f"{args.rounds + 1}..{args.decisive_rounds} there")
            run_rounds(args, plan, live, rows, earlier, pdir, out, meta, started,
                       [(r, i, wc) for r in range(args.rounds, args.decisive_rounds) for i, wc in enumerate(close)],
                       compared=lambda w, c: decisive.decisive_configs(plan["configs"], w, c, DEFAULT_VIRTUAL))
        if not args.no_open_model:
            open_phase.run(args, live, plan, rows, pdir, out)
        if not args.no_overload:
            overload_phase.run(args, live, plan, rows, pdir, out)
    finally:
        for inst in live:
            inst.stop()
        if args.pg:
            args.pg.stop()
        stop_all()
    meta["machine"]["loadavg_at_end"] = open("/proc/loadavg").read().strip()
    sitting(meta)["elapsed_s"] = round(time.time() - started)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
    data.write_csv(csv_path, rows)
    report.write_all(out)
    for name in plan["configs"]:
        prune_instance_home(os.path.join(out, "instances", name))
    shutil.rmtree(os.path.join(out, "feature"), ignore_errors=True)
    log(f"done in {sitting(meta)['elapsed_s']} s: {out}/results.md, results.csv, *.svg")
    return 0


def run_estimate(args, plan, points):
    """How long the whole run takes at most, phase by phase (decisive rounds counted as if every one is needed)."""
    # args.confine (confine.plan): a cgroup CPU set or quota; args.server_cpus alone may be plain pinning.
    confined = bool(getattr(args, "confine", None))
    parts = [("start and warm-up", estimate.start_seconds(len(plan["configs"]), args.warmup, confined)),
             ("closed model", estimate.closed_seconds(points, args.duration))]
    if not args.no_open_model:
        n, extra, duration = open_phase.planned(args, plan, phase_configs(args, plan, "open_configs",
                                                                          plan["configs"]))
        parts.append(("open model", estimate.open_seconds(n + extra, duration)))
    if not args.no_overload:
        n, extra, duration = overload_phase.planned(args, plan, phase_configs(args, plan, "overload_configs",
                                                                              plan["configs"]))
        parts.append(("overload", estimate.overload_seconds(n + extra, duration, confined=confined)))
    return estimate.describe(parts)


def run():
    return run_main(main, "bench")
