package io.github.slingvt.http.internal.adaptive.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Property 4 of the simulation (issue 85): the load changes and the limit follows within
 * {@link #RECOVER_SECONDS} each way. 100 clients per carrier send requests that wait 100 ms, then from
 * {@link #CHANGE_SECONDS} on renders of 5 ms (CPU-bound), then from twice that on waiting requests again. After the
 * first change the requests in flight must fall to the CPU-bound bound of {@link CpuBoundOverloadTest} and stay there;
 * after the second, no request may wait for admission any more (the limit no longer binds).
 */
class LoadChangeTest {

    /** "Within a few seconds", as for a CPU-bound overload from the start. */
    static final double RECOVER_SECONDS = CpuBoundOverloadTest.CONVERGE_SECONDS;
    /** How long each load lasts. */
    static final double CHANGE_SECONDS = 10;
    static final int CLIENTS_PER_CARRIER = 100;

    private static final Comparison.Table TABLE = new Comparison.Table(
            "Property 4: waiting -> CPU-bound -> waiting, 10 s each (closed, C=100P; answers/s over 3-30 s; "
                    + "conv = s to the CPU-bound bound after the first change)");

    @ParameterizedTest(name = "{0} carriers")
    @ValueSource(ints = {2, 8, 32, 64})
    void theLimitFollowsTheLoadEachWay(int carriers) {
        Load load = Load.closed(CLIENTS_PER_CARRIER * carriers,
                Load.changing(CHANGE_SECONDS * 1_000, Kind.WAIT_100MS, Kind.CPU, Kind.WAIT_100MS),
                "wait->cpu->wait C=100P");
        double end = 3 * CHANGE_SECONDS;
        Comparison c = Comparison.of(carriers, load, end, 3);
        Run law = c.law();
        int bound = CpuBoundOverloadTest.inFlightBound(carriers);
        double down = law.secondsUntil(CHANGE_SECONDS, 2 * CHANGE_SECONDS,
                i -> law.inFlight[i] <= bound && law.limits[i] <= bound);
        double up = law.secondsUntil(2 * CHANGE_SECONDS, end, i -> law.waiting[i] == 0);
        boolean ok = down <= RECOVER_SECONDS && up <= RECOVER_SECONDS;
        TABLE.add(c, "closed", down, String.format(Locale.ROOT, "%s; back up in %.1f s", ok ? "pass" : "FAIL", up));

        assertThat(down).as("seconds to at most %d in flight after the change to CPU-bound, %d carriers", bound,
                carriers).isLessThanOrEqualTo(RECOVER_SECONDS);
        assertThat(up).as("seconds until nothing waits for admission after the change back, %d carriers", carriers)
                .isLessThanOrEqualTo(RECOVER_SECONDS);
    }

    @AfterAll
    static void print() {
        TABLE.print();
    }
}
