"""The benchmark of Sling VT (`./sling-vt bench`, `./sling-vt profile`, `./sling-vt overload`), in packages by concern
(bench/README.md, "Layout"); a package imports only the packages below it (tests/test_layout.py):

core        process control, HTTP GETs, configurations and workloads, the rows of the CSV files, time estimates
samples     /proc and jcmd figures, the host probe, the server's admission during an overload point
load        wrk and oha, one measured point
instances   one Sling instance, the PostgreSQL store, the network delay
verdicts    every verdict: met / MISSED / undecided, the A/A twins' spread, host states, decisive points
reports     results.md, plots, README's summary, the copy of a run's summary into docs/benchmarks
scenarios   optional runs: --metrics-cost, --latency, ./sling-vt profile, ./sling-vt overload
plan        ./sling-vt bench: the command line, the plans, the closed, open-model and overload phases
"""
