#!/usr/bin/env python3
"""Entry point of ./sling-vt bench; the benchmark itself is the package slingvt_bench (see its __init__)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from slingvt_bench.plan import cli

if __name__ == "__main__":
    sys.exit(cli.run())
