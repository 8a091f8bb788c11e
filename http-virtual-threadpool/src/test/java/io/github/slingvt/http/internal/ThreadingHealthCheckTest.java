package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.felix.hc.api.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadingHealthCheckTest {

    private static final long MINUTE = 60_000_000_000L;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ThreadingState state = new ThreadingState(timer);
    private final AtomicLong now = new AtomicLong();
    private final ThreadingHealthCheck check = new ThreadingHealthCheck(state, new Config(), now::get);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

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
    void anyPinWarnsByDefaultAndManyAreCritical() {
        state.pinning().record(new PinnedEvent(30_000_000, "t", "", List.of("a.B.c(line 1)")));
        now.set(MINUTE);
        Result warn = check.execute();
        assertThat(warn.getStatus()).isEqualTo(Result.Status.WARN);
        assertThat(warn.toString()).contains("a.B.c(line 1)");
        for (int i = 0; i < 11; i++) {
            state.pinning().record(new PinnedEvent(30_000_000, "t", "", List.of("a.B.c(line 1)")));
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

    private void reject(int n) {
        for (int i = 0; i < n; i++) {
            state.counters().rejected();
        }
    }

    /** The defaults, with a one-minute interval. */
    private static final class Config implements ThreadingHealthCheckConfig {
        @Override
        public Class<? extends Annotation> annotationType() {
            return ThreadingHealthCheckConfig.class;
        }

        @Override
        public String hc_name() {
            return "test";
        }

        @Override
        public String[] hc_tags() {
            return new String[] {"slingvt"};
        }

        @Override
        public long intervalSeconds() {
            return 60;
        }

        @Override
        public double rejectedPerMinuteWarn() {
            return 10;
        }

        @Override
        public double rejectedPerMinuteCritical() {
            return 100;
        }

        @Override
        public double pinnedPerMinuteWarn() {
            return 0;
        }

        @Override
        public double pinnedPerMinuteCritical() {
            return 10;
        }
    }
}
