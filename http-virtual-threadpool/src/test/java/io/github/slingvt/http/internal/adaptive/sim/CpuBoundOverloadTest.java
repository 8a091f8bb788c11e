package io.github.slingvt.http.internal.adaptive.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property 2 of the simulation (issue 85): under a CPU-bound overload (closed loops of 100 and 1,000 clients per
 * carrier, 5 ms of CPU each, no wait) the limit converges within {@link #CONVERGE_SECONDS} to a level that keeps the
 * carriers busy ({@link #MIN_CPU_LOAD}) with at most {@link #inFlightBound} requests in flight, where unbounded
 * admission keeps every client's request in flight.
 */
class CpuBoundOverloadTest {

    /** "Within a few seconds": from the start, limit at 200, to the last reading outside the bound. */
    static final double CONVERGE_SECONDS = 5;
    /** Carriers busy after convergence: a limit that keeps them below this leaves answers on the table. */
    static final double MIN_CPU_LOAD = 0.95;
    /**
     * Runnable requests per carrier that the bound allows: two keep every carrier busy with one queued behind it,
     * twice that is slack; every one more adds only cost.
     */
    static final int IN_FLIGHT_PER_CARRIER = 4;
    /** Answers of the better of unbounded and the pool that a converged limit keeps at least. */
    static final double OF_BEST = 0.97;
    static final double SECONDS = 10;
    static final double WARMUP_SECONDS = 5;

    private static final Comparison.Table TABLE = new Comparison.Table(
            "Property 2: a CPU-bound overload converges (closed model, answers/s after 5 s; conv = s from the start)");

    static Stream<Arguments> cases() {
        return IntStream.of(2, 8, 32, 64).boxed().flatMap(p -> Stream.of(
                Arguments.of(p, Load.closed(100 * p, Load.only(Kind.CPU), "cpu 5ms C=100P")),
                Arguments.of(p, Load.closed(1_000 * p, Load.only(Kind.CPU), "cpu 5ms C=1000P"))));
    }

    /**
     * What may be in flight once converged: {@link #IN_FLIGHT_PER_CARRIER} per carrier, or adaptiveMinLimit's default
     * where that is more (a floor the law is configured with, 20). At least 5 times fewer than the clients.
     */
    static int inFlightBound(int carriers) {
        return Math.max(CurrentLaw.DEFAULT_MIN, IN_FLIGHT_PER_CARRIER * carriers);
    }

    @ParameterizedTest(name = "{0} carriers, {1}")
    @MethodSource("cases")
    void theLimitConvergesToWhatKeepsTheCarriersBusy(int carriers, Load load) {
        Comparison c = Comparison.of(carriers, load, SECONDS, WARMUP_SECONDS);
        Run law = c.law();
        int bound = inFlightBound(carriers);
        double converged = law.secondsUntil(0, SECONDS, i -> law.inFlight[i] <= bound && law.limits[i] <= bound);
        double cpu = Double.isNaN(converged) ? 0 : law.cpuLoad(converged, SECONDS);
        boolean ok = converged <= CONVERGE_SECONDS && cpu >= MIN_CPU_LOAD
                && law.inTime() >= OF_BEST * Math.max(c.unbounded().inTime(), c.pool().inTime());
        TABLE.add(c, "closed", converged, ok ? "pass" : "FAIL");

        assertThat(converged).as("seconds until at most %d in flight, %d carriers, %s", bound, carriers, load.name())
                .isLessThanOrEqualTo(CONVERGE_SECONDS);
        assertThat(cpu).as("carriers busy after convergence").isGreaterThanOrEqualTo(MIN_CPU_LOAD);
        assertThat(c.unbounded().maxInFlight(WARMUP_SECONDS, SECONDS)).as("unbounded in flight")
                .isGreaterThanOrEqualTo(5 * bound);
        assertThat(law.inTime()).as("answers/s against the better of unbounded and the pool")
                .isGreaterThanOrEqualTo(OF_BEST * Math.max(c.unbounded().inTime(), c.pool().inTime()));
    }

    @AfterAll
    static void print() {
        TABLE.print();
    }
}
