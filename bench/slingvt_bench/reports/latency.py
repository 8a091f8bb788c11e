"""`./sling-vt bench --store postgres --latency 0,1,5`: one run per one-way latency between Oak and PostgreSQL
(netdelay.py), each in OUT/latency-<MS>ms, and this summary of them in OUT/latency.md. Stdlib only.

Per latency and point: Oak's database round trips per request, the network wait they add to a request (round trips x
2 x latency: the toxic delays each direction by exactly that), each configuration's throughput and its Little's-law
bound (requests in flight at most min(C, K) for a pool of K threads, C for unbounded virtual threads, divided by the
time one request takes when nothing queues: its mean latency at the lowest concurrency), and whether virtual threads
beat the pool by more than the A/A spread of their twin.
"""
import os

from slingvt_bench.core.rows import fmt, num, read_csv

POOL = "kernel-200"
VT = "vt-unbounded"
TWIN = "vt-unbounded-twin"
THREADS = {"kernel-200": 200, "kernel-1000": 1000}


def subdir(out, latency_ms):
    return os.path.join(out, f"latency-{latency_ms}ms")


def rows_by_point(rows):
    """{(config, workload, C): row}; a point measured in several rounds keeps its median rps row."""
    points = {}
    for r in rows:
        points.setdefault((r["config"], r["workload"], int(r["concurrency"])), []).append(r)
    return {k: sorted(v, key=lambda r: num(r["rps"]) or 0)[len(v) // 2] for k, v in points.items()}


def bound(config, conc, service_ms):
    if not service_ms:
        return None
    in_flight = min(conc, THREADS[config]) if config in THREADS else conc
    return in_flight / (service_ms / 1000.0)


def summarize(latency_ms, rows):
    """The lines of one latency's table, and the smallest C where virtual threads won beyond the twins' spread."""
    points = rows_by_point(rows)
    workloads = sorted({w for _, w, _ in points})
    lines, overtakes = [], {}
    for w in workloads:
        concs = sorted({c for cf, ww, c in points if ww == w})
        service = {cf: num(points[(cf, w, concs[0])]["mean_ms"]) for cf in (POOL, VT)
                   if (cf, w, concs[0]) in points}
        for c in concs:
            pool, vt, twin = (points.get((cf, w, c)) for cf in (POOL, VT, TWIN))
            if pool is None or vt is None:
                continue
            p, v = num(pool["rps"]), num(vt["rps"])
            t = num(twin["rps"]) if twin else None
            spread = abs(v - t) / p if (t is not None and p) else None
            ratio = v / p if p else None
            if ratio is None:
                verdict = "–"
            elif spread is not None and abs(ratio - 1) <= spread:
                verdict = "undecided"
            else:
                verdict = "virtual ahead" if ratio > 1 else "pool ahead"
            if verdict == "virtual ahead" and w not in overtakes:
                overtakes[w] = c
            rt = num(vt.get("db_rt_per_req"))
            wait = rt * 2 * latency_ms if rt is not None else None
            lines.append(f"| {latency_ms} | {w} | {c:,} | {fmt(rt, 1)} | {fmt(wait, 1)} | {fmt(p, 1)} | "
                         f"{fmt(bound(POOL, c, service.get(POOL)), 0)} | {fmt(v, 1)} | "
                         f"{fmt(bound(VT, c, service.get(VT)), 0)} | {fmt(t, 1)} | {fmt(ratio, 2)}× | "
                         f"{fmt(spread * 100 if spread is not None else None, 1)} % | {verdict} |")
    return lines, overtakes


def write(out, latencies):
    head = ["# Oak on PostgreSQL across a network: one-way latency " + ", ".join(f"{l} ms" for l in latencies), "",
            "One run per latency (toxiproxy between the instances and PostgreSQL, `--latency`), the same plan each: "
            "see each `latency-<MS>ms/results.md` for every figure. Round trips per request: Oak's, counted by the "
            "bundle jdbc-round-trips (vt-unbounded's), one per borrowed connection. Network wait = round trips × 2 × "
            "latency: a lower bound, since a borrow may take more than one round trip. Bound = Little's law, "
            "requests in flight (min(C, 200) for the pool, C for virtual threads) ÷ the configuration's mean latency "
            "at the lowest C. Verdict: virtual / pool beyond the A/A spread of vt-unbounded and its twin, else "
            "undecided.", "",
            "| one-way ms | workload | C | round trips / req | network wait / req (ms) | kernel-200 req/s | its bound "
            "| vt-unbounded req/s | its bound | twin req/s | vt / kernel | A/A spread | verdict |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    lines, summary = [], []
    for l in latencies:
        path = os.path.join(subdir(out, l), "results.csv")
        if not os.path.isfile(path):
            summary.append(f"- {l} ms: no results ({path} missing)")
            continue
        table, overtakes = summarize(l, read_csv(path))
        lines += table
        for w in sorted({ln.split("|")[2].strip() for ln in table}):
            c = overtakes.get(w)
            summary.append(f"- {l} ms, {w}: " + (f"virtual threads ahead of the 200-thread pool from C = {c:,}"
                                                   if c else "virtual threads never ahead beyond the spread"))
    text = "\n".join(head + lines + ["", "Where virtual threads overtake the pool:", ""] + summary) + "\n"
    with open(os.path.join(out, "latency.md"), "w") as f:
        f.write(text)
    return text
