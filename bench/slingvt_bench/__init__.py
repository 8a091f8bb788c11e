"""The benchmark and overload runs of Sling VT (`./sling-vt bench`, `./sling-vt overload`), one job per module:

common      process control (every process started is registered and stopped by its PID), free ports
sampling    /proc and jcmd figures of the server process, the drain wait, the machine description
plan        configurations, workloads, the full and quick plans, CPU pinning
instances   one Sling instance: lab configuration, start, readiness, verification of its threads, stop
load        wrk and oha under one process control; the steady-state rate
points      warm-up, one measured point, the open-model runs
data        results.csv rows by point (median round)
verdicts    the targets, met / missed / undecided
report      results.md (tables, ratios, verdicts)
plots       the plots, with matplotlib
openload    oha: install, capacity, rates, summaries
pgstore     --store postgres: the PostgreSQL of a run and the per-point database figures
overload    ./sling-vt overload: bounded, unbounded-parked and slow-client scenarios (clients, report)
cli         ./sling-vt bench: command line and the rotation of points over the instances
"""
