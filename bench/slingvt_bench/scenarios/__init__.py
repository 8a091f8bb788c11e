"""Optional runs: --metrics-cost, --latency, ./sling-vt profile, ./sling-vt overload."""
