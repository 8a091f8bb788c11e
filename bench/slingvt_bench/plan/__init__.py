"""A run of ./sling-vt bench: the command line, the plan, the closed, open-model and overload phases."""
