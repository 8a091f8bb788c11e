package io.github.slingvt.observability.internal.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateWindowTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;

    @Test
    void dividesByTheIntervalUntilThereIsMoreHistory() {
        RateWindow window = new RateWindow(5 * MINUTE, 0, 0, 0);
        RateWindow.Rates rates = window.sample(10 * SECOND, 50, 5);
        assertThat(rates.rejectedPerMinute()).isEqualTo(10.0);
        assertThat(rates.pinnedPerMinute()).isEqualTo(1.0);
        assertThat(rates.rejected()).isEqualTo(50);
    }

    @Test
    void forgetsWhatIsOlderThanTheInterval() {
        RateWindow window = new RateWindow(MINUTE, 0, 0, 0);
        window.sample(30 * SECOND, 600, 0);
        window.sample(70 * SECOND, 600, 0);
        // Baseline is now the sample at 70 s (newest at least a minute old at 140 s): nothing new since.
        RateWindow.Rates rates = window.sample(140 * SECOND, 600, 0);
        assertThat(rates.rejectedPerMinute()).isZero();
        assertThat(rates.seconds()).isEqualTo(70);
    }

    @Test
    void staysBoundedHoweverOftenItRuns() {
        RateWindow window = new RateWindow(MINUTE, 0, 0, 0);
        for (long t = 0; t < 10 * MINUTE; t += SECOND / 10) {
            window.sample(t, t / SECOND, 0);
        }
        assertThat(window.size()).isLessThanOrEqualTo(62);
    }

    @Test
    void aRestartedCounterCountsAsNew() {
        RateWindow window = new RateWindow(MINUTE, 0, 100, 0);
        assertThat(window.sample(MINUTE, 3, 0).rejected()).isEqualTo(3);
    }
}
