"""The base every package may use: process control, HTTP GETs, the configurations and workloads, the rows of results.csv / openmodel.csv / overload.csv, run-time estimates."""
