package io.github.slingvt.http.internal.adaptive.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property 1 of the simulation (issue 85): a load that waits, with the carriers at most half busy, is never
 * throttled. Closed loops of requests that wait 100 ms or a second with 0.2 ms of CPU (C = 100 and 1,000 per
 * carrier), and of pages (C = 10 per carrier), on 2 to 64 carriers. After a warm-up in which the limit rises from its
 * initial 200, the law must answer as unbounded admission does (at least {@link #OF_UNBOUNDED}), and a request must
 * not wait for admission longer than one reading of the law.
 */
class WaitingLoadTest {

    /** What a load that needs no limit keeps of unbounded admission's answers: the model's noise is below 1 %. */
    static final double OF_UNBOUNDED = 0.97;
    /** The longest 99th percentile of admission waits: one period of the law, the time it takes to react. */
    static final double MAX_P99_ADMISSION_WAIT_MILLIS = AdmissionLaw.PERIOD_MILLIS;
    static final double SECONDS = 8;
    /** The law starts at 200 and doubles every 0.5 s at most: 200 to 64,000 takes about 4.5 s. */
    static final double WARMUP_SECONDS = 5;

    private static final Comparison.Table TABLE = new Comparison.Table(
            "Property 1: a load that waits is never throttled (closed model, answers/s after a 5 s warm-up)");

    /** Requests that wait 100 ms or 1 s, and pages: none of them keeps the carriers more than half busy. */
    static Stream<Arguments> cases() {
        return IntStream.of(2, 8, 32, 64).boxed().flatMap(p -> Stream.of(
                Arguments.of(p, Load.closed(100 * p, Load.only(Kind.WAIT_100MS), "wait 100ms C=100P")),
                Arguments.of(p, Load.closed(100 * p, Load.only(Kind.WAIT_1S), "wait 1s C=100P")),
                Arguments.of(p, Load.closed(1_000 * p, Load.only(Kind.WAIT_1S), "wait 1s C=1000P")),
                Arguments.of(p, Load.closed(10 * p, Load.only(Kind.PAGE), "page C=10P"))));
    }

    @ParameterizedTest(name = "{0} carriers, {1}")
    @MethodSource("cases")
    void aLoadThatWaitsIsNeverThrottled(int carriers, Load load) {
        assertNotThrottled(carriers, load);
    }

    private static void assertNotThrottled(int carriers, Load load) {
        Comparison c = Comparison.of(carriers, load, SECONDS, WARMUP_SECONDS);
        boolean ok = c.ofUnbounded() >= OF_UNBOUNDED
                && c.law().admissionWait(0.99) <= MAX_P99_ADMISSION_WAIT_MILLIS;
        TABLE.add(c, "closed", Double.NaN, ok ? "pass" : "FAIL");
        assertThat(c.law().inTime()).as("answers/s with the law, %d carriers, %s", carriers, load.name())
                .isGreaterThanOrEqualTo(OF_UNBOUNDED * c.unbounded().inTime());
        assertThat(c.law().admissionWait(0.99)).as("99th percentile of the admission wait, ms")
                .isLessThanOrEqualTo(MAX_P99_ADMISSION_WAIT_MILLIS);
    }

    @AfterAll
    static void print() {
        TABLE.print();
    }
}
