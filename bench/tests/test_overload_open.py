"""The open-model overload (issue #27): rates, categories from oha's JSON and SQLite rows, the per-second series, the
accounting identities, the targets of the default virtual configuration, and the phase's wiring."""
import os
import contextlib
import sqlite3
import tempfile
import unittest
from unittest import mock

from slingvt_bench.core import overload_rows
from slingvt_bench.core.common import BenchError
from slingvt_bench.core.rows import round_of
from slingvt_bench.load import overload_oha as ov
from slingvt_bench.plan import overload_phase
from slingvt_bench.reports import overload_section
from slingvt_bench.verdicts import overload as rep


def oha_db(path, rows):
    """A SQLite file with oha 1.16.0's table (db.rs) and rows (status, start, end, duration)."""
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL, start_latency_correction REAL, "
                    "end REAL NOT NULL, duration REAL NOT NULL, status INTEGER NOT NULL, len_bytes INTEGER NOT NULL, "
                    "run INTEGER NOT NULL)")
        con.executemany("INSERT INTO oha VALUES ('u', ?, ?, ?, ?, ?, 10, 1)",
                        [(s, s, e, d, st) for st, s, e, d in rows])


class FakeInstance:
    """An instance the overload phase drives: a name, an unreachable URL, no process to watch."""

    def __init__(self, name):
        self.name, self.url, self.pid, self.info = name, "http://127.0.0.1:1", 1, {}

    def check_alive(self):
        pass


def phase_patched(oha, counts, stack):
    """Patches, on stack (contextlib.ExitStack), everything overload_phase.run reaches outside the process: oha
    (the function oha), the idle and drain waits, the log, and the server's status reads (next of counts)."""
    stack.enter_context(mock.patch.object(overload_phase, "run_oha", oha))
    stack.enter_context(mock.patch.object(overload_phase, "wait_quiet"))
    stack.enter_context(mock.patch.object(overload_phase, "http_get", return_value=(200, b"")))
    stack.enter_context(mock.patch.object(overload_phase, "get_json", side_effect=lambda *a, **k: next(counts)))
    stack.enter_context(mock.patch.object(overload_phase, "log"))
    stack.enter_context(mock.patch.object(overload_phase.time, "sleep"))
    stack.enter_context(mock.patch.object(overload_phase, "ensure_running", return_value=None))


SUMMARY = {"statusCodeDistribution": {"200": 6, "503": 3, "500": 1},
           "errorDistribution": {"timeout": 4, "aborted due to deadline": 5, "Connection refused (os error 111)": 2},
           "latencyPercentiles": {"p50": 0.2, "p99": 9.0}}


class OverloadOpenTest(unittest.TestCase):

    def test_rates_are_130_and_200_percent_of_kernel_200s_capacity_for_every_configuration(self):
        rows = [dict(config=cf, workload="R1s", rps_steady=str(cap), rps=str(cap))
                for cf, cap in (("kernel-200", 190), ("vt-unbounded", 3000))]
        self.assertEqual(overload_rows.offered(rows, ["vt-unbounded", "kernel-200"], "R1s"),
                         ("kernel-200", 190.0, [(1.3, 190.0 * 1.3), (2.0, 380.0)]))
        self.assertEqual(overload_rows.offered(rows, ["vt-unbounded"], "R10ms"), (None, None, []))

    def test_connections_cover_the_timeout_within_the_limits(self):
        self.assertEqual(ov.connections(380, 10, 20000), 3990)
        self.assertEqual(ov.connections(2, 10, 20000), 64)
        # 200 % of the page's kernel-200 capacity: 38,172 would cover the timeout; a 20,000 fd limit allows 8,000.
        self.assertEqual(ov.connections(3635.4, 10, 20000), 8000)
        self.assertEqual(ov.connections(3635.4, 10, 1_048_576), 38172)
        self.assertEqual(ov.connections(3635.4, 10, 1024), 409)

    def test_command_has_fixed_rate_latency_correction_timeout_and_the_sqlite_file(self):
        cmd = ov.command("oha", "http://x/", 247.0, 2594, 60, 10, "/tmp/a.db")
        for flag, value in (("-q", "247.0"), ("-c", "2594"), ("-z", "60s"), ("-t", "10s"), ("--db-url", "/tmp/a.db")):
            self.assertEqual(cmd[cmd.index(flag) + 1], value)
        self.assertIn("--latency-correction", cmd)

    def test_every_request_lands_in_exactly_one_category_from_json_and_sqlite(self):
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "o.db")
            # six 2xx: four within 10 s of when they were due (0.1, 0.2, 0.3, 10.0), two later (10.5, 12)
            oha_db(db, [(200, 0, 0.1, 0.1), (200, 1, 1.2, 0.2), (200, 2, 2.3, 0.3), (200, 3, 13, 10.0),
                        (200, 4, 14.5, 10.5), (200, 5, 17, 12.0), (503, 1, 1.01, 0.01), (503, 2, 2.01, 0.01),
                        (503, 3, 3.01, 0.01), (500, 3, 3.5, 0.5)])
            answers = ov.read_db(db)
            self.assertIsNone(ov.read_db(os.path.join(d, "missing.db")))
        c = ov.categories(SUMMARY, answers, 10, 20)
        self.assertEqual((c["ok_in_time"], c["ok_late"], c["s503"], c["other_non2xx"], c["timeouts"],
                          c["conn_errors"], c["cut_off"], c["sent"]), (4, 2, 3, 1, 4, 2, 5, 21))
        self.assertEqual(c["losses"], 21 - 4 - 5)
        self.assertEqual(c["ok_per_s"], 0.2)
        self.assertEqual((c["p50_ms"], c["p99_ms"], c["source"]), (200.0, 10000.0, "sqlite"))
        j = ov.categories(SUMMARY, None, 10, 20)  # without the SQLite rows: every 2xx in time, oha's percentiles
        self.assertEqual((j["ok_in_time"], j["ok_late"], j["p99_ms"], j["source"]), (6, 0, 9000.0, "json"))

    def test_per_second_buckets_by_completion_with_empty_seconds_and_late_answers_left_out(self):
        answers = [(200, 0.2, 0.2), (200, 0.9, 0.1), (200, 2.5, 11.0), (503, 2.1, 0.0), (404, 3.99, 0.1),
                   (200, 4.2, 0.3)]
        self.assertEqual(ov.per_second(answers, 10, 4),
                         [(0, 2, 0, 0), (1, 0, 0, 0), (2, 0, 1, 0), (3, 1, 0, 1)])

    def test_accounting_holds_when_the_server_saw_what_the_client_sent_net_of_own_requests(self):
        cats = dict(ok_in_time=90, ok_late=0, s503=10, other_non2xx=0, sent=110)
        before = dict(admitted=1000, rejected=5, abandoned=2, completed=999, inFlight=1, queued=0)
        after = dict(admitted=1093, rejected=15, abandoned=7, completed=1092, inFlight=1, queued=0)
        a = ov.accounting(before, after, {"admitted": 3, "rejected": 0}, cats, True)
        # Arrived: the 90 admitted, the 10 refused and the 5 dropped unstarted when their clients left.
        self.assertEqual((a["admitted"], a["rejected"], a["abandoned"], a["server_arrived"], a["client_answered"]),
                         (90, 10, 5, 105, 100))
        self.assertEqual((a["arrived_identity"], a["admitted_identity"]), ("held", "held"))
        # The server counted fewer than the client was answered: broken; and a request still queued at the end
        # breaks the second identity.
        short = ov.accounting(before, dict(after, admitted=1075, completed=1074), {"admitted": 3}, cats, True)
        self.assertEqual(short["arrived_identity"], "broken")
        queued = ov.accounting(before, dict(after, queued=2), {"admitted": 3}, cats, True)
        self.assertEqual(queued["admitted_identity"], "broken")
        self.assertEqual(ov.accounting(None, None, {}, cats, False)["arrived_identity"], "n/a")
        self.assertIn("no counters", ov.accounting(None, None, {}, cats, False)["counters"])


def orow(cf, fr, ok_per_s, p99, losses=0, s503=0, own=1000.0, failed=""):
    return dict(config=cf, workload="R1s", fraction=str(fr), reference="kernel-200", capacity_rps="200.0",
                target_rps=str(200 * fr), own_capacity_rps=str(own), ok_per_s=str(ok_per_s), p99_ms=str(p99),
                losses=str(losses), s503=str(s503), failed=failed, duration_s="60", timeout_s="10", sent="100")


CAP = "vt-adaptive ≥ 90 % of its own closed-model capacity (at most the offered rate)"


def section_of(rows):
    """results.md's overload section for these overload.csv rows."""
    with tempfile.TemporaryDirectory() as out:
        overload_rows.write_csv(os.path.join(out, "overload.csv"), rows)
        return overload_section.section(out)


class OverloadTargetsTest(unittest.TestCase):

    def verdicts(self, rows):
        return {t.split(": ", 1)[1]: v for t, _, v in rep.targets(rows)}

    def test_met_missed_and_not_applicable(self):
        v = self.verdicts([orow("kernel-200", 1.3, 200, 9000, losses=500), orow("vt-adaptive", 1.3, 230, 1200)])
        self.assertEqual(v["vt-adaptive answers in time/s ≥ kernel-200's"], "met")
        # 230 of min(offered 260, own 1000): 88 %
        self.assertEqual(v[CAP], "MISSED")
        v = self.verdicts([orow("kernel-200", 1.3, 200, 9000, losses=500), orow("vt-adaptive", 1.3, 240, 1200)])
        self.assertEqual(v[CAP], "met")  # 92 % of the offered 260, although only 24 % of its own 1000
        self.assertEqual(v["vt-adaptive p99 of its answers ≤ kernel-200's"], "met")
        self.assertEqual(v["vt-adaptive zero 503 where kernel-200 answered every request in time"], "not applicable")
        v = self.verdicts([orow("kernel-200", 1.3, 260, 900), orow("vt-adaptive", 1.3, 250, 1200, s503=3, own=270)])
        self.assertEqual(v["vt-adaptive answers in time/s ≥ kernel-200's"], "MISSED")
        self.assertEqual(v[CAP], "met")  # 250 of min(260, own 270)
        self.assertEqual(v["vt-adaptive p99 of its answers ≤ kernel-200's"], "MISSED")
        self.assertEqual(v["vt-adaptive zero 503 where kernel-200 answered every request in time"], "MISSED")

    def test_a_shortfall_from_its_own_capacity_with_the_clients_connections_all_taken_is_undecided(self):
        # 400/s offered for a 10 s timeout needs 4,200 connections; the client had 4,000, 3,900 still open at the end.
        capped = dict(connections="4000", cut_off="3900")
        v = self.verdicts([dict(orow("kernel-200", 2.0, 350, 9000, losses=900), **capped),
                           dict(orow("vt-adaptive", 2.0, 300, 5000, losses=1000), **capped)])
        self.assertEqual(v[CAP], rep.CLIENT_UNDECIDED)  # 300 of min(400, 1000): 75 %
        self.assertEqual(v["vt-adaptive answers in time/s ≥ kernel-200's"], "MISSED", "the same client for both")
        spare = dict(connections="4000", cut_off="2500")
        v = self.verdicts([dict(orow("kernel-200", 2.0, 350, 9000, losses=900), **spare),
                           dict(orow("vt-adaptive", 2.0, 300, 5000, losses=1000), **spare)])
        self.assertEqual(v[CAP], "MISSED", "connections to spare: the server's shortfall")
        held = dict(connections="4000", cut_off="2500", held_median="3990")
        v = self.verdicts([dict(orow("kernel-200", 2.0, 350, 9000, losses=900), **held),
                           dict(orow("vt-adaptive", 2.0, 300, 5000, losses=1000), **held)])
        self.assertEqual(v[CAP], rep.CLIENT_UNDECIDED, "the server held them all during the point (bench/METHOD.md: Client out of connections)")
        v = self.verdicts([dict(orow("kernel-200", 2.0, 350, 9000, losses=900), **capped),
                           dict(orow("vt-adaptive", 2.0, 380, 5000, losses=1000), **capped)])
        self.assertEqual(v[CAP], "met", "95 % is met whatever the client")

    def test_a_p99_comparison_with_both_at_the_clients_timeout_is_undecided(self):
        p99 = "vt-adaptive p99 of its answers ≤ kernel-200's"
        # Both within the last 3 % of the 10 s timeout (full-2026-11-29b, R10ms 200 %: 9,929.5 vs 9,906.8 ms): the
        # order of two values the timeout cut off.
        v = self.verdicts([orow("kernel-200", 2.0, 200, 9906.8, losses=900), orow("vt-adaptive", 2.0, 300, 9929.5)])
        self.assertEqual(v[p99], rep.TIMEOUT_UNDECIDED)
        self.assertEqual(v["vt-adaptive answers in time/s ≥ kernel-200's"], "met", "the other targets as before")
        v = self.verdicts([orow("kernel-200", 2.0, 200, 9929.5, losses=900), orow("vt-adaptive", 2.0, 300, 9906.8)])
        self.assertEqual(v[p99], rep.TIMEOUT_UNDECIDED, "a win at the timeout decides nothing either")
        # One of them below 9,700 ms answered 99 % of its answers before the timeout's last stretch: judged.
        v = self.verdicts([orow("kernel-200", 2.0, 200, 9650.0, losses=900), orow("vt-adaptive", 2.0, 300, 9929.5)])
        self.assertEqual(v[p99], "MISSED")
        v = self.verdicts([orow("kernel-200", 2.0, 200, 9929.5, losses=900), orow("vt-adaptive", 2.0, 300, 9650.0)])
        self.assertEqual(v[p99], "met")

    def test_a_ratio_within_the_twins_spread_is_undecided(self):
        v = self.verdicts([orow("kernel-200", 2.0, 200, 900), orow("vt-adaptive", 2.0, 196, 800),
                           orow("vt-adaptive-twin", 2.0, 180, 800)])
        self.assertTrue(v["vt-adaptive answers in time/s ≥ kernel-200's"].startswith("undecided"))

    def test_a_failed_point_is_missed_on_every_target(self):
        for rows in ([orow("kernel-200", 2.0, 200, 900), orow("vt-adaptive", 2.0, 0, 0, failed="oha exited 1")],
                     [orow("kernel-200", 2.0, 0, 0, failed="down"), orow("vt-adaptive", 2.0, 300, 500)],
                     [orow("kernel-200", 2.0, 200, 900)]):
            v = rep.targets(rows)
            self.assertEqual(len(v), 4)
            self.assertTrue(all(x.startswith("MISSED (failed") for _, _, x in v), v)

    def test_rounds_are_judged_by_their_median_and_a_failed_round_fails_the_point(self):
        def rnd(r, n):
            return dict(r, round=str(n))
        kernel = [rnd(orow("kernel-200", 1.3, ok, 9000, losses=500), n) for n, ok in ((1, 200), (2, 100), (3, 150))]
        # 240 (92 %) in one round only: the median round, 230 (88 %), is judged
        auto = [rnd(orow("vt-adaptive", 1.3, ok, 1200), n) for n, ok in ((1, 180), (2, 240), (3, 230))]
        v = self.verdicts(kernel + auto)
        self.assertEqual(v[CAP], "MISSED")
        measured = {t.split(": ", 1)[1]: m for t, m, _ in rep.targets(kernel + auto)}
        self.assertEqual(measured["vt-adaptive answers in time/s ≥ kernel-200's"], "230.0 vs 150.0/s = 1.53× (median of 3 rounds: 0.90 / 2.40 / 1.53)")
        # Of an even count the lower middle round: 180 and 240 judge as 180, not their mean
        v = self.verdicts(kernel + auto[:2])
        self.assertEqual(v[CAP], "MISSED")
        auto[1]["failed"] = "oha exited 1"
        self.assertTrue(all(x.startswith("MISSED (failed") for _, _, x in rep.targets(kernel + auto)))
        text = section_of(kernel + auto[:1] + auto[2:])
        self.assertIn("| vt-adaptive (round 3) |", text)
        self.assertIn("3 rounds per point", text)

    def test_the_comparisons_with_the_reference_pair_the_rounds(self):
        # repo200-overload-client-2026-12-02 at 130 %: round 1, every instance's first overload, had both p99s at the
        # timeout; auto's median round by answers in time was round 1, kernel-200's round 2 (METHOD.md: paired overload rounds)
        def rnd(r, n):
            return dict(r, round=str(n))
        kernel = [rnd(orow("kernel-200", 1.3, ok, p, losses=500), n)
                  for n, ok, p in ((1, 400.6, 9830.5), (2, 335.9, 5272.3), (3, 299.2, 5290.9))]
        auto = [rnd(orow("vt-adaptive", 1.3, ok, p), n)
                for n, ok, p in ((1, 438.7, 9890.7), (2, 317.9, 5123.6), (3, 470.6, 4603.3))]
        twin = [rnd(orow("vt-adaptive-twin", 1.3, ok, p), n)
                for n, ok, p in ((1, 443.6, 9885.6), (2, 330.8, 4751.9), (3, 483.8, 4492.8))]
        got = {t.split(": ", 1)[1]: (m, x) for t, m, x in rep.targets(kernel + auto + twin)}
        p99 = got["vt-adaptive p99 of its answers ≤ kernel-200's"]
        self.assertEqual(p99[0], "5,123.6 vs 5,272.3 ms (median of 3 rounds: 0.994 / 1.029 / 1.149)")
        self.assertEqual(p99[1], "undecided (within the A/A spread of ±8 %)")  # 5,123.6 : 4,751.9 in round 2
        ok = got["vt-adaptive answers in time/s ≥ kernel-200's"]
        self.assertEqual(ok[0], "438.7 vs 400.6/s = 1.10× (median of 3 rounds: 1.10 / 0.95 / 1.57)")
        # the target against its own capacity still judges auto's own median round
        self.assertTrue(got[CAP][0].startswith("438.7 of "))

    def test_two_rounds_on_both_sides_of_the_goal_decide_nothing(self):
        def rnd(r, n):
            return dict(r, round=str(n))
        kernel = [rnd(orow("kernel-200", 1.3, ok, p), n) for n, ok, p in ((1, 400.0, 900.0), (2, 400.0, 900.0))]
        auto = [rnd(orow("vt-adaptive", 1.3, ok, p), n) for n, ok, p in ((1, 360.0, 800.0), (2, 440.0, 820.0))]
        twin = [rnd(orow("vt-adaptive-twin", 1.3, ok, p), n) for n, ok, p in ((1, 362.0, 801.0), (2, 441.0, 821.0))]
        got = {t.split(": ", 1)[1]: x for t, _, x in rep.targets(kernel + auto + twin)}
        self.assertTrue(got["vt-adaptive answers in time/s ≥ kernel-200's"].startswith(
            "undecided (an even number of rounds"))   # 0.90 / 1.10
        self.assertEqual(got["vt-adaptive p99 of its answers ≤ kernel-200's"], "met")  # 1.125 / 1.098: both ahead

    def test_rows_without_a_round_are_round_one(self):
        self.assertEqual([round_of(r) for r in (dict(), dict(round=""), dict(round="2"))], [1, 1, 2])
        rows = [orow("kernel-200", 1.3, 200, 9000), orow("vt-adaptive", 1.3, 240, 1200)]
        self.assertEqual(rep.index(rows)[("vt-adaptive", "R1s", 1.3)]["ok_per_s"], "240")
        self.assertNotIn("(round 1)", section_of(rows))

    def test_section_lists_losses_first_and_flags_a_short_run(self):
        rows = [dict(orow("vt-adaptive", 2.0, 390, 1100, losses=5), sent="24000"),
                dict(orow("kernel-200", 2.0, 200, 9500, losses=12000), sent="24000", duration_s="20")]
        text = section_of(rows)
        self.assertLess(text.index("| kernel-200 | 12000 |"), text.index("| vt-adaptive | 5 |"))
        self.assertIn("Shorter than the phase is meant to run", text)

    def test_the_server_table_compares_cpu_per_answer_with_the_capacity_point_only_where_it_was_read(self):
        old = [orow("vt-adaptive", 1.3, 390, 9800)]
        new = [dict(orow("vt-adaptive", 1.3, 390, 9800), cpu_pct="188.0", cpu_ms_per_completed="4.40",
                    closed_cpu_ms_per_answer="2.90", limit_min="44", limit_max="199", in_flight_median="47",
                    queued_max="7953", held_median="7995", connections="8000", watch_samples="30",
                    client_cpu_pct="24.0", closed_client_cpu_pct="7.5"),
               dict(orow("kernel-200", 1.3, 130, 9600), cpu_pct="185.0", cpu_ms_per_completed="2.70",
                    closed_cpu_ms_per_answer="", watch_samples="0")]
        self.assertNotIn("The server during each point", section_of(old))
        text = section_of(new)
        self.assertIn("| R1s | 260.0 | vt-adaptive | 188.0 | 24.0 (7.5) | 4.40 | 2.90 | 1.52× | 44–199 | 47 | 7953 | 7,995 of 8,000 |",
                      text)
        self.assertIn("| R1s | 260.0 | kernel-200 | 185.0 | – | 2.70 | – | – | – | – | – | – |", text)
        self.assertIn("the server's admission every 2 s `overload-admission.csv`", text)


class OverloadPhaseTest(unittest.TestCase):

    def test_all_configurations_at_the_same_rates_with_counters_only_where_our_handler_runs(self):
        class Args:
            quick, oha, append, overload_duration, overload_timeout, fd_limit = False, "oha", None, 60, 10, 20000
            overload_rounds, overload_decisive_rounds, overload_decisive_points = 2, 1, 3
        closed = [dict(config=cf, workload="R1s", rps_steady=str(cap), rps=str(cap), client_cpu_pct="6.0")
                  for cf, cap in (("kernel-200", 200), ("vt-unbounded", 3000), ("felix-virtual", 2500))]
        driven = []

        def oha(args, cmd, duration, out_json, usage=None):
            driven.append((out_json.split("oha-overload-")[1], cmd[cmd.index("-q") + 1]))
            usage["client_cpu_pct"] = 21.5
            if "felix" in out_json and "200" in out_json:
                raise BenchError("oha exited 2")
            oha_db(cmd[cmd.index("--db-url") + 1], [(200, 0, 0.5, 0.5)])
            return {"statusCodeDistribution": {"200": 1}}
        counts = iter([dict(admitted=10, rejected=0, completed=9, inFlight=1, queued=0),
                       dict(admitted=13, rejected=0, completed=12, inFlight=1, queued=0)] * 8)
        with tempfile.TemporaryDirectory() as out, contextlib.ExitStack() as stack:
            phase_patched(oha, counts, stack)
            overload_phase.run(Args, [FakeInstance(c) for c in ("kernel-200", "vt-unbounded", "felix-virtual")],
                               dict(workloads=["R1s"], pause=0), closed, out, out)
            rows = overload_rows.read_csv(os.path.join(out, "overload.csv"))
            series = overload_rows.read_csv(os.path.join(out, "overload-series.csv"))
            self.assertEqual([f for f in os.listdir(out) if f.endswith(".db")], [])
        self.assertEqual({q for _, q in driven}, {"260.0", "400.0"})
        # Two rounds of 3 configurations x 2 rates, the second round's files apart from the first's.
        self.assertEqual(len(driven), 12)
        self.assertEqual(len({f for f, _ in driven}), 12)
        self.assertIn("vt-unbounded-R1s-130-r2.json", {f for f, _ in driven})
        by = {(r["config"], r["fraction"], r["round"]): r for r in rows}
        self.assertEqual(len(by), 12)
        for rnd in ("1", "2"):
            self.assertEqual(by[("vt-unbounded", "1.3", rnd)]["arrived_identity"], "held")  # 3 admitted - 2 own
            # the client's CPU at the point and at the configuration's closed-model capacity point, side by side
            self.assertEqual((by[("vt-unbounded", "1.3", rnd)]["client_cpu_pct"],
                              by[("vt-unbounded", "1.3", rnd)]["closed_client_cpu_pct"]), ("21.5", "6.0"))
            self.assertIn("no counters", by[("felix-virtual", "1.3", rnd)]["counters"])
            self.assertIn("oha exited 2", by[("felix-virtual", "2.0", rnd)]["failed"])
            self.assertEqual(len([s for s in series if s["config"] == "kernel-200" and s["round"] == rnd]), 2 * 60)

    def test_only_overload_needs_append_and_takes_the_earlier_plan(self):
        class Args:
            only_overload, no_overload, append, quick, configs, workloads = True, False, None, True, None, None
            overload_duration, overload_timeout, overload_rounds = None, 10, 1
            overload_decisive_rounds = overload_decisive_points = None
        with self.assertRaises(BenchError):
            overload_phase.check_args(Args, [], {})
        Args.append = "/x"
        plan = dict(configs=["a"], workloads=["R10ms"], extra=[("park10s", 4000)])
        earlier = [dict(config=c, workload=w) for c in ("kernel-200", "vt-unbounded") for w in ("R1s", "park10s")]
        overload_phase.check_args(Args, earlier, plan)
        self.assertEqual((plan["configs"], plan["workloads"], Args.overload_duration),
                         (["kernel-200", "vt-unbounded"], ["R1s"], overload_rows.QUICK_DURATION_S))
        Args.overload_rounds = 0
        with self.assertRaisesRegex(BenchError, "--overload-rounds must be 1 or more"):
            overload_phase.check_args(Args, earlier, dict(plan))
        Args.overload_rounds, Args.overload_decisive_rounds = 1, 0
        with self.assertRaisesRegex(BenchError, "--overload-decisive-rounds must be 1 or more"):
            overload_phase.check_args(Args, earlier, dict(plan))


if __name__ == "__main__":
    unittest.main()


class OverloadWatchInPhaseTest(unittest.TestCase):

    def test_the_watch_reads_are_own_requests_and_its_samples_are_written(self):
        class Args:
            quick, oha, append, overload_duration, overload_timeout, fd_limit = False, "oha", None, 60, 10, 20000
            overload_rounds, overload_decisive_rounds, overload_decisive_points = 1, 1, 3

        class FakeWatch:
            def __init__(self, pid, read_status):
                self.reads, self.cpu_s, self.elapsed_s = 2, 6.0, 3.0
                self.samples = [dict(second=2.0, limit=44, in_flight=45, queued=300, completed=1, cpu_pct=190.0),
                                dict(second=4.0, limit=88, in_flight=80, queued=10, completed=2, cpu_pct=180.0)]

            def start(self):
                return self

            def stop(self):
                pass

            def finish(self):
                pass
        closed = [dict(config="vt-adaptive", workload="R1s", rps_steady="400", rps="400", cpu_pct="100"),
                  dict(config="kernel-200", workload="R1s", rps_steady="200", rps="200", cpu_pct="20")]

        def oha(args, cmd, duration, out_json, usage=None):
            oha_db(cmd[cmd.index("--db-url") + 1], [(200, 0, 0.5, 0.5)])
            return {"statusCodeDistribution": {"200": 1}}
        # Per point: 1 answered + the drain probe + 2 watch reads + 1 final status read = 5 admitted.
        counts = iter([dict(admitted=10, rejected=0, completed=9, inFlight=1, queued=0),
                       dict(admitted=15, rejected=0, completed=14, inFlight=1, queued=0)] * 2)
        with tempfile.TemporaryDirectory() as out, contextlib.ExitStack() as stack, \
                mock.patch.object(overload_phase.watch, "Watch", FakeWatch):
            phase_patched(oha, counts, stack)
            overload_phase.run(Args, [FakeInstance("vt-adaptive")], dict(workloads=["R1s"], pause=0), closed, out,
                               out)
            rows = overload_rows.read_csv(os.path.join(out, "overload.csv"))
            watched = overload_rows.read_csv(os.path.join(out, "overload-admission.csv"))
        r = next(r for r in rows if r["fraction"] == "1.3")
        self.assertEqual((r["own_requests"], r["server_arrived"], r["arrived_identity"]), ("4", "1", "held"))
        self.assertEqual((r["cpu_pct"], r["cpu_ms_per_completed"], r["closed_cpu_ms_per_answer"]),
                         ("200.0", "1200.0", "2.5"))  # 6 s of CPU for 5 completed; closed: 10 x 100 / 400
        self.assertEqual((r["limit_min"], r["limit_max"], r["in_flight_median"], r["queued_max"]),
                         ("44", "88", "62", "300"))
        self.assertEqual(len(watched), 4)  # 2 samples x 2 rates
        self.assertEqual(watched[0]["config"], "vt-adaptive")
