"""The verdict of --metrics-cost: metrics on against off."""
import statistics


TARGET = 0.98


def verdict(on, off):
    ratio = statistics.median(on) / statistics.median(off)
    spread = max((max(a) - min(a)) / statistics.median(a) for a in (on, off))
    if ratio >= TARGET:
        return ratio, spread, "met"
    return ratio, spread, "missed" if ratio < TARGET - spread else "undecided"
