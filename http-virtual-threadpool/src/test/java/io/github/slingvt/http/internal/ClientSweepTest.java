package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ClientSweepTest {

    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(250);

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void aRequestIsFirstLookedAtOnceItHasWaitedTheDelay() {
        assertThat(ClientSweep.due(ms(249), -1, DELAY, PERIOD)).isFalse();
        assertThat(ClientSweep.due(ms(250), -1, DELAY, PERIOD)).isTrue();
    }

    @Test
    void everyPeriodWithinItsFirstSecondOfWaiting() {
        assertThat(ClientSweep.due(ms(500), ms(250), DELAY, PERIOD)).isTrue();
        assertThat(ClientSweep.due(ms(750), ms(240), DELAY, PERIOD)).as("a sweep a little early").isTrue();
        assertThat(ClientSweep.due(ms(750), ms(100), DELAY, PERIOD)).isFalse();
    }

    @Test
    void laterAfterAQuarterOfItsAge() {
        assertThat(ClientSweep.due(ms(4_000), ms(500), DELAY, PERIOD)).isFalse();
        assertThat(ClientSweep.due(ms(4_000), ms(1_000), DELAY, PERIOD)).isTrue();
        assertThat(ClientSweep.due(ms(40_000), ms(5_000), DELAY, PERIOD)).isFalse();
        assertThat(ClientSweep.due(ms(40_000), ms(10_000), DELAY, PERIOD)).isTrue();
    }

    /** Sweeps every period over a request's wait: how often it is looked at, and how late a departure is seen. */
    @Test
    void aMinuteOfWaitingIsLookedAt18TimesAndADepartureSeenAtMost40PercentLate() {
        int looks = 0;
        long lastLook = -1;
        long worstLateShare = 0;
        for (long age = ms(10); age <= ms(60_000); age += PERIOD) {
            long since = lastLook < 0 ? -1 : age - lastLook;
            if (ClientSweep.due(age, since, DELAY, PERIOD)) {
                if (lastLook > ms(1_000)) {
                    // A client that left just after the look before is seen now: late by the time between.
                    worstLateShare = Math.max(worstLateShare, 100 * (age - lastLook) / lastLook);
                }
                looks++;
                lastLook = age;
            }
        }
        assertThat(looks).as("240 at one look a period").isEqualTo(18);
        assertThat(worstLateShare).as("seen late by a share of the age at which it left").isLessThanOrEqualTo(40);
    }
}
