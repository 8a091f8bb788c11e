"""Ratios between configurations at a point, round by round, in one state of the host."""
from slingvt_bench.core.rows import Rows, lower_median, num, ratio, round_of
from slingvt_bench.verdicts import host_state


class Data(Rows):
    """Rows by (config, workload, C) with the ratios between configurations: the median of the per-round ratios (the
    rounds of one point run back to back, so a ratio within a round is not skewed by drift between rounds), of the
    rounds measured in one state of the host where the probe tells them apart (hostprobe)."""

    def round_pairs(self, a, b, workload, c, field="thr"):
        """(round, a : b, same host state) for each round both measured; the state is hostprobe.same_state of the two
        rows (None for rows without the probe)."""
        ra = {round_of(r): r for r in self.rounds.get((a, workload, c), [])}
        rb = {round_of(r): r for r in self.rounds.get((b, workload, c), [])}
        out = []
        for k in sorted(ra):
            if k in rb:
                x = ratio(num(ra[k].get(field)), num(rb[k].get(field)))
                if x is not None:
                    out.append((k, x, host_state.same_state(ra[k], rb[k])))
        return out

    def _compared(self, a, b, workload, c, field="thr"):
        """The round ratios a comparison uses, and whether rounds in different host states were left out: where the
        probe saw a round in one state, only such rounds; else all (runs without the probe, or every round in
        different states, which state_differed reports)."""
        return host_state.in_one_state([(x, s) for _, x, s in self.round_pairs(a, b, workload, c, field)])

    def round_ratios(self, a, b, workload, c, field="thr"):
        """a : b in each round both measured in one host state (of throughput, or of another numeric field such as
        cpu_ms); every round both measured where the probe tells no round apart (see _compared)."""
        return self._compared(a, b, workload, c, field)[0]

    def state_differed(self, a, b, workload, c):
        """True when the probe saw every round of a and b at this point in two different host states: their ratio
        then measures the host as much as the product (hostprobe.STATE_EFFECT)."""
        return host_state.only_two_states([s for *_, s in self.round_pairs(a, b, workload, c)])

    def ratio(self, a, b, workload, c):
        rs, filtered = self._compared(a, b, workload, c)
        if len(rs) > 1 or (rs and filtered):
            return lower_median(rs)
        return ratio(self.get(a, workload, c, "thr"), self.get(b, workload, c, "thr"))
