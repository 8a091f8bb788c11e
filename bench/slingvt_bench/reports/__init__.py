"""results.md, the plots, the README summary and the copy of a run's summary into docs/benchmarks."""
