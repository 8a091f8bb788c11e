package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.slingvt.http.internal.GateSimulation.Clients;
import io.github.slingvt.http.internal.GateSimulation.Result;
import io.github.slingvt.http.internal.GateSimulation.Server;

/**
 * The queue's order ({@link QueueDiscipline}) through the real gate, in the {@link GateSimulation}: a server answering
 * 1,000 requests a second, 50 at once, behind a queue of 10,000 that holds a request up to 60 s, against clients that
 * give up unseen, as HTTP/1 clients that close their connections do. An overload must answer about what the server
 * can in time and spend next to nothing on requests whose clients left; a closed loop, whose clients all wait, must be
 * served in order, each client in turn, none refused.
 */
class QueueOrderSimulationTest {

    private static final double CAPACITY = 1_000;
    private static final Server SERVER = new Server(50, CAPACITY, 10_000, 60_000);
    private static final double SECONDS = 60;
    private static final double WARMUP_SECONDS = 5;
    /** A load balancer's or browser's patience in the benchmark's overload points. */
    private static final double PATIENCE_MILLIS = 10_000;

    private static Result run(Clients clients, long seed) {
        Result result = GateSimulation.run(clients, SERVER, seed, SECONDS, WARMUP_SECONDS);
        System.out.println(clients + ": " + result);
        return result;
    }

    /**
     * Open overloads: the excess cannot be answered, the rest must be, at once. First in, first out would answer
     * everyone after the clients left.
     */
    @ParameterizedTest(name = "{0} % of capacity, seed {1}")
    @CsvSource({"130, 1", "130, 2", "200, 1"})
    void anOpenOverloadIsAnsweredInTimeAtCapacityAndWorksForNobodyNext(int percent, long seed) {
        Result result = run(Clients.open(CAPACITY * percent / 100, 0, PATIENCE_MILLIS), seed);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.95 * CAPACITY);
        assertThat(result.wastedShare()).isLessThanOrEqualTo(0.03);
        assertThat(result.newestFirstShare).isGreaterThan(0.9);
    }

    /**
     * The same overloads while the cap moves as {@code auto}'s does when the carriers are the bottleneck: raised for
     * half a second by about what the overload adds to the queue in that time, then cut back (here 50 to 200 against
     * 150 a half second at 130 %; confined R100ms at 130 % in the benchmark: 200 to 400 against about 230). A raised
     * cap takes a batch of waiters to run, which left the queue but not the server. Counted as the queue's flow, they
     * made intervals look level, served in order, and the oldest answered after their clients left: 828–961 a second
     * in time at 130 %, up to 17.5 % of the work for nobody (decision 0056).
     */
    @ParameterizedTest(name = "{0} % of capacity, seed {1}")
    @CsvSource({"130, 1", "130, 2", "200, 1"})
    void anOpenOverloadUnderAMovingCapIsAnsweredInTimeAtCapacityAndWorksForNobodyNext(int percent, long seed) {
        Result result = GateSimulation.run(Clients.open(CAPACITY * percent / 100, 0, PATIENCE_MILLIS),
                SERVER.swinging(200), seed, SECONDS, WARMUP_SECONDS);
        System.out.println("moving cap, " + percent + " %: " + result);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.95 * CAPACITY);
        assertThat(result.wastedShare()).isLessThanOrEqualTo(0.03);
        assertThat(result.newestFirstShare).isGreaterThan(0.9);
    }

    /**
     * A mild overload grows by less than the noise of one half-second's counts in some intervals; each interval that
     * looks level is served in order, and answers the oldest waiters, whose clients have often left: 838–890 answers
     * a second in time at 110 %, 11–17 % of the work for nobody. The known cost of serving closed loops in order at
     * their first level interval (decision 0053); this bounds it.
     */
    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void aMildOverloadLosesTheIntervalsThatLookLevelByChanceAndNoMore(long seed) {
        Result result = run(Clients.open(1.1 * CAPACITY, 0, PATIENCE_MILLIS), seed);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.8 * CAPACITY);
        assertThat(result.wastedShare()).isLessThanOrEqualTo(0.2);
        assertThat(result.newestFirstShare).isGreaterThan(0.6);
    }

    /**
     * Below capacity nothing stands: everything is answered, in order. (The share of answers in time is that of the
     * arrivals, 900 a second.)
     */
    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void aLoadBelowCapacityIsAnsweredWholeInOrder(long seed) {
        Result result = run(Clients.open(0.9 * CAPACITY, 0, PATIENCE_MILLIS), seed);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.97 * 0.9 * CAPACITY);
        assertThat(result.gaveUp + result.refusedWaiting + result.forNobody).isZero();
        assertThat(result.newestFirstShare).isZero();
    }

    /**
     * Closed loops far beyond the server's 50 at once, within the queue's bound: 2,000 clients that wait for ever,
     * 8,000 behind a load balancer that waits 60 s. In order every client waits its turn, the queue's length over the
     * capacity (2 and 8 s); newest first would starve the oldest until the queue's 60 s refused them.
     */
    @ParameterizedTest(name = "{0} clients, patience {1} s")
    @CsvSource({"2000, 1000000", "8000, 60"})
    void aClosedLoopIsServedInOrderEveryClientInTurnNoneRefused(int clients, int patienceSeconds) {
        Result result = run(Clients.closed(clients, patienceSeconds * 1_000.0), 1);
        assertThat(result.refusedWaiting + result.refusedGone + result.gaveUp + result.forNobody).isZero();
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.97 * CAPACITY);
        assertThat(result.longestWaitMillis).isLessThan(1.5 * clients / CAPACITY * 1_000);
        assertThat(result.newestFirstShare).isLessThan(0.1);
    }

    /**
     * A closed loop whose clients join one by one over 5 s (a load balancer filling its connections, a load generator
     * connecting), so that its queue stands and grows for seconds, as an open overload's does: in order or newest
     * first, every client is answered, none refused, from the first second on. A pool serves such a loop whole; early
     * refusals in an overload that persists answered each of its clients 503 while it joined (decision 0055).
     */
    @ParameterizedTest(name = "{0} clients")
    @CsvSource({"2000", "8000"})
    void aClosedLoopThatJoinsOverSecondsIsServedWholeFromTheStart(int clients) {
        Result result = GateSimulation.run(Clients.closed(clients, 60_000).joiningOver(5_000), SERVER, 1, SECONDS, 0);
        System.out.println("closed, joining over 5 s, " + clients + ": " + result);
        assertThat(result.refusedWaiting + result.refusedGone + result.gaveUp + result.forNobody).isZero();
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.95 * CAPACITY);
        assertThat(result.newestFirstShare).isLessThan(0.15);
    }

    /**
     * More clients than the queue holds, each patient 10 s: the full queue must refuse someone. Served in order it
     * refused the newcomers and answered its oldest, 10 s old, after their clients left (30 to 56 % of the answers);
     * counting the refused as growth it serves the newest first and refuses the oldest instead.
     */
    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void aClosedLoopBeyondTheQueuesBoundServesTheNewestAndRefusesTheOldest(long seed) {
        Result result = run(Clients.closed(12_000, PATIENCE_MILLIS), seed);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.95 * CAPACITY);
        assertThat(result.wastedShare()).isLessThanOrEqualTo(0.03);
    }

    /**
     * A load generator's overload: twice the capacity over at most 8,000 connections, each waiting 10 s (oha in the
     * benchmark). Once all connections wait, the clients form a closed loop that gives up: its queue stands level and
     * is served in order, each waiting about 8 s, just inside its patience.
     */
    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"1", "2"})
    void aLoadGeneratorsCappedOverloadIsStillAnsweredAtCapacity(long seed) {
        Result result = run(Clients.open(2 * CAPACITY, 8_000, PATIENCE_MILLIS), seed);
        assertThat(result.inTimePerSecond()).isGreaterThanOrEqualTo(0.95 * CAPACITY);
        assertThat(result.wastedShare()).isLessThanOrEqualTo(0.03);
    }
}
