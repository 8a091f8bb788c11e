"""results.csv -> results.md: every point against the better kernel pool with the losses first, the share of
the physical limit, the verdicts, the run-to-run spread, the database figures; then the plots (plots.py).

`python3 bench/bench.py --report-only DIR` (or `./sling-vt bench --report-only DIR`) regenerates it."""
import json
import os

from slingvt_bench.core import open_rows, overload_rows
from slingvt_bench.core.estimate import sittings
from slingvt_bench.core.rows import WHOLE_RUN_MARK, fmt, fmt_ratio, num, read_csv
from slingvt_bench.core.setups import aa_pair
from slingvt_bench.reports import default_targets, host_table, open_section, overload_section, plots
from slingvt_bench.reports.notes import FAILED_MARK, failed_or_dash, failed_table, marks, thr_cell, whole_run_table
from slingvt_bench.reports.plots import PLOT_SKIP
from slingvt_bench.verdicts import open_rounds
from slingvt_bench.verdicts.closed import comparisons, physical_limit, targets
from slingvt_bench.verdicts.judge import host_undecided, ratios_only
from slingvt_bench.verdicts.ratios import Data


def physical_table(d, meta):
    nproc = meta.get("machine", {}).get("nproc")
    pts = [(w, c, physical_limit(d, w, c, nproc)) for w, c in d.points()]
    if not any(lim for *_, lim in pts):
        return []
    L = ["## Against the physical limit\n",
         "min(C/R, X_cpu) per point: C/R is Little's law with the nominal R; X_cpu = CPUs ÷ the lowest CPU per "
         "request any configuration used for the workload in this run (an upper bound: wrk shares the CPUs). Each "
         "cell is the configuration's throughput as a share of that limit.\n",
         "| workload | C | limit (req/s) | " + " | ".join(d.configs) + " |",
         "|---|---:|---:|" + "---:|" * len(d.configs)]
    for w, c, lim in pts:
        cells = [f"{100 * num(d.get(cf, w, c, 'thr')) / lim:.0f} %{marks(d, cf, w, c)}"
                 if lim and num(d.get(cf, w, c, "thr")) else "failed" if d.failed(cf, w, c) else "–"
                 for cf in d.configs]
        L.append(f"| {w} | {c:,} | {fmt(lim)} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def losses_first(d):
    L = ["## Every point against the better kernel pool, losses first\n",
         "Each virtual configuration at each point against whichever of kernel-200 and kernel-1000 did better there. "
         f"A ratio within the A/A spread of that point ({' : '.join(aa_pair(d.configs))}, two identical instances) is "
         "undecided, not a win or a loss.\n",
         "| virtual | workload | C | ratio | against | A/A spread | reading |", "|---|---|---:|---:|---|---:|---|"]
    rows = comparisons(d)
    if not rows:
        return []
    for v, w, c, r, k, spread in rows:
        if r is None:
            who = " and ".join(cf for cf in (v, k) if cf and d.failed(cf, w, c))
            L.append(f"| {v} | {w} | {c:,} | failed | {k or '–'} | – | **failed** ({who}) |")
            continue
        if host_undecided(d, v, k, w, c, r, 1.0):
            reading = "undecided (every round in two host states)"
        elif spread is not None and abs(r - 1) <= spread:
            reading = "undecided"
        elif round(r, 2) == 1.0:
            reading = "even"
        else:
            reading = "**loss**" if r < 1 else "win"
        if spread is None and reading in ("win", "**loss**"):
            reading += " (no A/A here to tell noise)"
        if d.get(v, w, c, "thr_note") or d.get(k, w, c, "thr_note"):
            reading += f" ({WHOLE_RUN_MARK} whole-run rate)"
        if d.failed(v, w, c) or d.failed(k, w, c):
            reading += f" ({FAILED_MARK} a round failed)"
        L.append(f"| {v} | {w} | {c:,} | {r:.2f}× | {k} | {'–' if spread is None else f'±{100 * spread:.0f} %'} | "
                 f"{reading} |")
    L.append("")
    return L


def cpu_table(d):
    """CPU per successful request and the collectors' share of it: where the cost per request goes as C grows."""
    if not any(d.get(cf, w, c, "gc_cpu_pct") for cf in d.configs for w, c in d.points()):
        return []
    L = ["## CPU per request and garbage collection\n",
         "ms of server CPU per successful request over the measured window (utime + stime ÷ successful answers), "
         "and in brackets the share of that CPU spent by the collector's threads (GC workers, G1 refinement and "
         "marking, ZGC workers and drivers, the VM thread) — from `/proc/<pid>/task/*/stat`.\n",
         "| workload | C | " + " | ".join(d.configs) + " |", "|---|---:|" + "---:|" * len(d.configs)]
    for w, c in d.points():
        cells = []
        for cf in d.configs:
            cpu, thr, gc = (num(d.get(cf, w, c, k)) for k in ("cpu_pct", "thr", "gc_cpu_pct"))
            if not cpu or not thr:
                cells.append(failed_or_dash(d, cf, w, c))
                continue
            share = f" ({100 * gc / cpu:.0f} % GC)" if gc is not None else ""
            cells.append(f"{10.0 * cpu / thr:.2f}{share}")
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def census_table(d):
    """The OS threads of each configuration at its largest measured point, by name group (what makes the count)."""
    rows = []
    for cf in d.configs:
        pts = [(c, w) for w, c in d.points() if d.get(cf, w, c, "thread_census")]
        if pts:
            c, w = max(pts)
            rows.append((cf, w, c, d.get(cf, w, c, "thread_census")))
    if not rows:
        return []
    L = ["## Where the OS threads are\n",
         "Live threads at the end of the measured window of each configuration's largest point, grouped by name "
         "with the numbers taken out (Linux keeps 15 characters of a thread name); groups of one are summed.\n",
         "| configuration | point | total | groups |", "|---|---|---:|---|"]
    for cf, w, c, census in rows:
        groups = [(k, int(v)) for k, v in (g.split("=", 1) for g in census.split(";") if "=" in g)]
        big = [f"{k} {v}" for k, v in sorted(groups, key=lambda kv: -kv[1]) if v > 1]
        ones = sum(v for _, v in groups if v == 1)
        L.append(f"| {cf} | {w} C={c:,} | {sum(v for _, v in groups)} | {', '.join(big)}, {ones} others of one |")
    L.append("")
    return L


def database_table(d, meta):
    if not any(d.get(cf, w, c, "db_cpu_pct") for cf in d.configs for w, c in d.points()):
        return []
    pg = meta.get("postgres") or {}
    L = ["## Database (PostgreSQL) and JDBC pool\n",
         "Round trips per request: Oak's database round trips (counted by the bundle jdbc-round-trips) over the "
         "requests the instance completed in the same span. Database CPU: the PostgreSQL server's processes, % of "
         "one core over the load. Pool: peak borrowed connections / peak threads waiting for one (tomcat-jdbc, "
         f"maxActive {pg.get('pool_max_active', 50)}, maxWait {pg.get('pool_max_wait_ms', 30000)} ms), sampled once "
         "a second from the console status; answered samples / taken (a saturated kernel pool queues the status "
         "request like any other).\n",
         "| workload | C | " + " | ".join(f"{cf} round trips / DB CPU / pool active / waiting (samples)"
                                       for cf in d.configs) + " |",
         "|---|---:|" + "---:|" * len(d.configs)]
    for w, c in d.points():
        cells = [(f"{fmt(d.get(cf, w, c, 'db_rt_per_req'), 1)} / {fmt(d.get(cf, w, c, 'db_cpu_pct'))} % / "
                  f"{fmt(d.get(cf, w, c, 'pool_active_max'))} / {fmt(d.get(cf, w, c, 'pool_waiting_max'))} "
                  f"({d.get(cf, w, c, 'pool_samples') or '–'})") if (cf, w, c) in d.by else "–" for cf in d.configs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    return L


def markdown(d, meta, lead=""):
    m = meta.get("machine", {})
    L = []
    title = "Quick benchmark" if meta.get("quick") else "Benchmark"
    L.append(f"# {title}: Sling VT request threads ({m.get('date', '')})\n")
    L.append(f"Machine: {m.get('nproc')} CPUs ({m.get('cpu_model', '')}), {m.get('mem_gib')} GiB, {m.get('os', '')}, "
             f"Linux {m.get('kernel', '')}; {m.get('jdk', '')}; JVM options `{m.get('jvm_opts', '')}`; "
             f"{m.get('wrk', '')} with {m.get('wrk_threads')} threads, timeout {m.get('wrk_timeout_s')} s; "
             f"{m.get('pinning', '')}; file-descriptor limit {m.get('fd_limit')}; "
             f"load average (1/5/15 min) at start {' '.join(m.get('loadavg_at_start', '').split()[:3])}, "
             f"at end {' '.join(m.get('loadavg_at_end', '').split()[:3])}.\n")
    # Runs before 2026-11-24 have no "feature" in meta.json: they ran the lean feature.
    L.append(f"Feature: `{meta.get('feature', 'lean')}` (`./sling-vt run --feature`), store: "
             f"`{meta.get('store', 'segment')}`.\n")
    plan = meta.get("plan", {})
    L.append(f"Every configuration runs in its own fresh instance, all at the same time; each gets "
             f"{plan.get('warmup')} s of warm-up, then the points are measured configuration by configuration in an "
             f"order that rotates from point to point, so that a drift of the machine hits all alike. A point runs "
             f"{plan.get('duration')} s plus its expected ramp (C / throughput at the previous C, twice that where it "
             f"is longer than the {plan.get('duration')} s, at most 40 s), and "
             f"the next starts only when the instance is idle again. Run took {sittings(meta)}.\n")
    L.append("| configuration | what | started (s) | seeded (s) | verified (s) | warm-up (s) | stop (s) |")
    L.append("|---|---|---|---|---|---|---|")
    for inst in meta.get("instances", []):
        desc = meta.get("configs", {}).get(inst["config"], "")
        err = f" **failed: {inst['error']}**" if inst.get("error") else ""
        if inst.get("failures"):
            err += f" ({len(inst['failures'])} failed measurements, {inst.get('restarts', 0)} restarts)"
        L.append(f"| {inst['config']} | {desc}{err} | {inst.get('startup_s', '–')} | {inst.get('seeded_s', '–')} | "
                 f"{inst.get('ready_s', '–')} | {inst.get('warmup_s', '–')} | {inst.get('stop_s', '–')} |")
    L.append("")
    L.append("Workloads (`GET /bin/vt/work.json?…` unless another path is named):\n")
    for w in d.workloads:
        wl = meta.get("workloads", {}).get(w, {})
        path = wl.get("path", "") + "?" if wl.get("path") else ""
        what = " or ".join(f"`{p}?{q}`" for p, q in wl["mix"]) if wl.get("mix") else f"`{path}{wl.get('params', '')}`"
        L.append(f"- **{w}** — {wl.get('desc', '')}: {what}")
    L.append("")

    if lead:
        L.append(lead)
    L.append("## Targets\n" if not lead else "## Targets of the earlier issues (#13)\n")
    L.append("| target | measured | verdict |")
    L.append("|---|---|---|")
    for t, v, vd in ratios_only(targets(d, meta), d.configs):
        mark = ("✅ met" if vd == "met" else "– not measured" if vd == "not measured"
                else "noise floor" if vd == "info" else vd if vd.startswith(("undecided", "ratio")) else "❌ " + vd)
        L.append(f"| {t} | {v} | {mark} |")
    L.append("")
    L += losses_first(d)
    L += physical_table(d, meta)

    cfgs = d.configs
    ratios = [(a, b) for a, b in (("vt-unbounded", "kernel-200"), ("vt-unbounded", "kernel-1000"),
                                  ("vt-unbounded", "felix-virtual"), ("vt-adaptive", "kernel-200"),
                                  ("vt-adaptive", "vt-unbounded"), ("vt-bounded", "vt-unbounded"),
                                  ("vt-unbounded", "vt-no-detector"), ("vt-unbounded", "vt-unbounded-twin"))
              if a in cfgs and b in cfgs]
    L.append("## Throughput (requests/s) and virtual:kernel ratios\n")
    L.append("Steady-state rate: successful responses (status below 400; failed answers are in the errors table, "
             "not here) per second, counted per wall-clock second by wrk's Lua hook, "
             "after the ramp and without the last second. The ramp ends once C responses have completed (every "
             "connection has had its first answer), and not before R + 1 s: under overload a fair scheduler "
             "(virtual threads) answers its first requests only after about C / throughput, a FIFO pool from the "
             "start, and counting from the first answers would favour FIFO. `results.csv` has the ramp (`ramp_s`), "
             "the window (`steady_window_s`) and the whole-run rate (`rps`). C/R is the Little's-law bound "
             "(C connections, nominal latency R). Measured p50 is in the next table. "
             f"{WHOLE_RUN_MARK}: no steady rate at this point, the whole-run rate stands in; failed / {FAILED_MARK}: all / "
             "some rounds of the point failed (both listed below).\n")
    L.append("| " + " | ".join(["workload", "C", "C/R"] + cfgs + [f"{a} : {b}" for a, b in ratios]) + " |")
    L.append("|---|---:|---:|" + "---:|" * (len(cfgs) + len(ratios)))
    for w, c in d.points():
        bound = next((d.get(cf, w, c, "little_bound_rps") for cf in cfgs if d.get(cf, w, c, "little_bound_rps")), None)
        cells = [thr_cell(d, cf, w, c) for cf in cfgs]
        rc = [fmt_ratio(d.ratio(a, b, w, c)) for a, b in ratios]
        L.append("| " + " | ".join([w, f"{c:,}", fmt(bound)] + cells + rc) + " |")
    L.append("")
    L += failed_table(d)
    L += whole_run_table(d)

    if d.max_rounds > 1:
        L.append(f"## Run-to-run spread ({d.max_rounds} rounds)\n")
        rounds = {(w, c): [len(d.rounds.get((cf, w, c), [])) for cf in d.configs if (cf, w, c) in d.rounds]
                  for w, c in d.points()}
        partial = any(max(n) > 1 and min(n) < max(n) for n in rounds.values() if n)
        L.append("Points with more than one round were measured again in this sitting, the configurations one after "
                 "the other (rotating order)" + ("; at a decisive point only those its targets compare (vt-unbounded "
                                                 "where its wins kept are judged)" if partial else "")
                 + ". Throughput cells above are the median round; ratios are the median of the per-round ratios, "
                 "of the rounds measured in one host state where the probe saw rounds in two (`*`: the two "
                 "configurations' probes more than 2x apart, left out). Per-round ratios, in round order:\n")
        L.append("| workload | C | " + " | ".join(f"{a} : {b}" for a, b in ratios) + " |")
        L.append("|---|---:|" + "---|" * len(ratios))
        for w, c in d.points():
            cells = [", ".join(f"{x:.2f}" + ("*" if same is False else "") for _, x, same in d.round_pairs(a, b, w, c))
                     or "–" for a, b in ratios]
            L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
        L.append("")

    L.append("## Latency p50 / p99 (ms) and errors\n")
    L.append("Errors: socket errors (connect + read + write + timeout) / non-2xx answers. Latencies of saturated "
             "kernel points are censored by the run length (requests still queued when wrk stops are not counted).\n")
    L.append("| workload | C | " + " | ".join(f"{cf} p50 / p99" for cf in cfgs) + " | "
             + " | ".join(f"{cf} errors" for cf in cfgs) + " |")
    L.append("|---|---:|" + "---:|" * (2 * len(cfgs)))
    for w, c in d.points():
        lat = [f"{fmt(d.get(cf, w, c, 'p50_ms'), 1)} / {fmt(d.get(cf, w, c, 'p99_ms'), 1)}"
               if d.get(cf, w, c, "p50_ms") else failed_or_dash(d, cf, w, c) for cf in cfgs]
        err = [f"{fmt(d.get(cf, w, c, 'socket_errors'))} / {fmt(d.get(cf, w, c, 'non2xx'))}"
               if d.get(cf, w, c, "p50_ms") else failed_or_dash(d, cf, w, c) for cf in cfgs]
        L.append(f"| {w} | {c:,} | " + " | ".join(lat) + " | " + " | ".join(err) + " |")
    L.append("")

    gc_when = ("`jcmd GC.run` in a tail after the measured window, under the same load"
               if meta.get("plan", {}).get("gc_tail_s") else "`jcmd GC.run` at 80 % of the run, inside the window")
    L.append("## Server resources\n")
    L.append("Live OS threads (peak of `/proc/<pid>/status` Threads, sampled every 0.5 s), peak RSS (MiB), heap "
             "after a full GC (MiB; " + gc_when + "), CPU (% of one core, utime+stime over the measured window). "
             "The heap is fixed and pre-touched (see the JVM options), so RSS differences are what lives outside it, "
             "thread stacks above all.\n")
    L.append("| workload | C | " + " | ".join(f"{cf} threads / RSS / heap / CPU" for cf in cfgs) + " |")
    L.append("|---|---:|" + "---:|" * len(cfgs))
    for w, c in d.points():
        cells = [(f"{fmt(d.get(cf, w, c, 'threads_max'))} / {fmt(d.get(cf, w, c, 'rss_max_mib'))} / "
                  f"{fmt(d.get(cf, w, c, 'heap_after_gc_mib'))} / {fmt(d.get(cf, w, c, 'cpu_pct'))} %")
                 if (cf, w, c) in d.by and not d.get(cf, w, c, "failed") else failed_or_dash(d, cf, w, c) for cf in cfgs]
        L.append(f"| {w} | {c:,} | " + " | ".join(cells) + " |")
    L.append("")
    L += cpu_table(d)
    L += host_table.section(d)
    L += census_table(d)
    L += database_table(d, meta)
    L.append("## Plots\n")
    for w in [w for w in d.workloads if w not in PLOT_SKIP]:
        L.append(f"- {w}: [throughput](throughput-{w}.svg), [OS threads](threads-{w}.svg), [RSS](rss-{w}.svg)")
    L.append("")
    L.append("![throughput vs concurrency, R = 1 s](throughput-R1s.svg)\n" if "R1s" in d.workloads else "")
    L.append("Raw numbers: [results.csv](results.csv); run parameters and instance verification: [meta.json](meta.json).\n")
    return "\n".join(L)


def write_all(out):
    rows = read_csv(os.path.join(out, "results.csv"))
    try:
        with open(os.path.join(out, "meta.json")) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        meta = {}
    d = Data(rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(markdown(d, meta, default_targets.section(out, d)) + open_section.section(out)
                + overload_section.section(out))
    plots.write_plots(out, d, meta)
    plots.latency_plots(out, open_rounds.median_rows(open_rows.read_csv(os.path.join(out, "openmodel.csv"))))
    plots.overload_plots(out, overload_rows.read_csv(os.path.join(out, "overload-series.csv")),
                         overload_rows.read_csv(os.path.join(out, "overload.csv")))
