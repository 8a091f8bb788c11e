#!/usr/bin/env python3
"""Entry point of ./sling-vt overload; the scenarios are in slingvt_bench.overload."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from slingvt_bench.scenarios import overload

if __name__ == "__main__":
    sys.exit(overload.run())
