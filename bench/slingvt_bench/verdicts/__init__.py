"""Every verdict: met / MISSED / undecided, the A/A twins' spread, host states, decisive points."""
