package io.github.slingvt.observability.internal.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinnedEvent;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import org.apache.felix.hc.api.Result;
import org.junit.jupiter.api.Test;

class ThreadingHealthCheckTest {

    private static final long MINUTE = 60_000_000_000L;

    private final Fakes.Http http = new Fakes.Http();
    private final PinningStats pinning = new PinningStats();
    private final AtomicLong now = new AtomicLong();
    private final List<ConfigProblem> problems = new ArrayList<>();
    /** A one-minute interval and a WARN on any pin. */
    private final ThreadingHealthCheck check = new ThreadingHealthCheck(http, pinning,
            new ThreadingHealthCheck.Settings(60, 10, 100, 0, 10), () -> problems, now::get);

    @Test
    void okWithoutRejectionsOrPins() {
        now.set(MINUTE);
        Result result = check.execute();
        assertThat(result.getStatus()).isEqualTo(Result.Status.OK);
        assertThat(result.toString()).contains("Rejected requests (503): 0.00 per minute");
    }

    @Test
    void warnAboveTheWarnRate() {
        reject(11);
        now.set(MINUTE);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.WARN);
    }

    @Test
    void criticalAboveTheCriticalRate() {
        reject(101);
        now.set(MINUTE);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.CRITICAL);
    }

    @Test
    void anyPinWarnsWhenTheWarnRateIsZeroAndManyAreCritical() {
        pinning.record(new PinnedEvent(30_000_000, "t", "", List.of("a.B.c(line 1)")));
        now.set(MINUTE);
        Result warn = check.execute();
        assertThat(warn.getStatus()).isEqualTo(Result.Status.WARN);
        assertThat(warn.toString()).as("anonymous health output names the pin but shows no frames")
                .contains("Most frequent pinned stack: 1 time, longest 30 ms (thread t)")
                .contains("frames are on the web console page").doesNotContain("a.B.c(line 1)");
        for (int i = 0; i < 11; i++) {
            pinning.record(new PinnedEvent(30_000_000, "t", "", List.of("a.B.c(line 1)")));
        }
        now.set(2 * MINUTE);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.CRITICAL);
    }

    @Test
    void backToOkOnceTheIntervalHasPassed() {
        reject(500);
        now.set(MINUTE);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.CRITICAL);
        now.set(2 * MINUTE);
        check.execute();
        now.set(3 * MINUTE + 1);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.OK);
    }

    @Test
    void aRefusedConfigurationWarnsWithItsReason() {
        problems.add(new ConfigProblem("io.github.slingvt.http.VirtualThreads", "maxConcurrentRequests", "lots",
                "a whole number from 0 to 1000000"));
        now.set(MINUTE);
        Result result = check.execute();
        assertThat(result.getStatus()).isEqualTo(Result.Status.WARN);
        assertThat(result.toString()).contains("Configuration refused, the previous settings stay in force: "
                + "io.github.slingvt.http.VirtualThreads: property 'maxConcurrentRequests' = 'lots' refused");
    }

    private void reject(int n) {
        HttpThreadsSnapshot s = http.now;
        http.now = new HttpThreadsSnapshot(s.mode(), s.maxConcurrentRequests(), s.kernelMaxThreads(), s.inFlight(),
                s.peakInFlight(), s.queued(), s.admitted(), s.rejected() + n, s.completed(),
                s.virtualThreadsStarted(), s.refusedConfigurations(), s.lastConfigurationError());
    }
}
