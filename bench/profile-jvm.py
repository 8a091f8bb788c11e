#!/usr/bin/env python3
"""Entry point of ./sling-vt profile (slingvt_bench.jvmprofile): CPU, allocations and heap of one configuration."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from slingvt_bench.scenarios import jvmprofile

if __name__ == "__main__":
    sys.exit(jvmprofile.run())
