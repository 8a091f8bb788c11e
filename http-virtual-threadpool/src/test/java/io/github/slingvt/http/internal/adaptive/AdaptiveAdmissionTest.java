package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class AdaptiveAdmissionTest {

    private final AtomicBoolean saturated = new AtomicBoolean();
    private final List<Integer> caps = new CopyOnWriteArrayList<>();
    private final AdaptiveAdmission admission = new AdaptiveAdmission(new AdaptiveLimit(10, 1000, 200),
            saturated::get, "test", (source, cap) -> caps.add(cap));

    @Test
    void twoSaturatedReadingsInARowLowerTheCapOneDoesNot() {
        saturated.set(true);
        admission.tick();
        assertThat(caps).isEmpty();
        admission.tick();
        assertThat(caps).containsExactly(180);
        admission.tick();
        assertThat(caps).containsExactly(180, 162);

        saturated.set(false);
        admission.tick();
        saturated.set(true);
        admission.tick();
        assertThat(caps).as("a reading between two saturated periods starts the count again").hasSize(2);
    }

    @Test
    void finishedRequestsRaiseTheCapAndOnlyChangesAreHandedOn() {
        admission.completed(1_000_000, 150);
        admission.completed(1_000_000, 150);
        admission.completed(1_000_000, 10);
        assertThat(caps).containsExactly(201, 202);
        assertThat(admission.limit()).isEqualTo(202);
    }

    @Test
    void aSignalThatFailsKeepsTheLimit() {
        AdaptiveAdmission broken = new AdaptiveAdmission(new AdaptiveLimit(10, 1000, 200), () -> {
            throw new IllegalStateException("no bean");
        }, "test", (source, cap) -> caps.add(cap));
        broken.tick();
        broken.tick();
        assertThat(caps).isEmpty();
        assertThat(broken.limit()).isEqualTo(200);
    }

    @Test
    void finishedRequestsStepByTheUnsaturatedLatencyWhileTheLastReadingWasSaturated() {
        for (int i = 0; i < 300; i++) {
            admission.completed(100_000_000, 1000); // 100 ms with headroom: R0 becomes about 100 ms
        }
        int grown = admission.limit();
        assertThat(grown).isEqualTo(500);
        saturated.set(true);
        admission.tick(); // one saturated reading: no drop yet, but the step is now (1.5 x 100 ms + 100 ms) / 1 s
        for (int i = 0; i < 100; i++) {
            admission.completed(100_000_000, 1000);
        }
        assertThat(admission.limit() - grown).isBetween(24, 26);
    }
}
