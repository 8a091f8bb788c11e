package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class AdaptiveAdmissionTest {

    private final AtomicReference<CarrierReading> reading = new AtomicReference<>(CarrierReading.ofCounts(2, 0, 0));
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final List<Integer> caps = new CopyOnWriteArrayList<>();
    private final AdaptiveAdmission admission = new AdaptiveAdmission(new CarrierLimit(10, 1000, 200), reading::get,
            "test", running::get, waiting::get, (source, cap) -> caps.add(cap));

    @Test
    void eachReadingMovesTheLimitByTheGatesCountsAndOnlyChangesAreHandedOn() {
        running.set(200);
        waiting.set(50);
        admission.tick();
        assertThat(caps).containsExactly(400);
        waiting.set(0);
        admission.tick();
        assertThat(caps).as("no change, nothing handed on").containsExactly(400);

        reading.set(CarrierReading.ofCounts(2, 2, 398));
        admission.tick();
        admission.tick();
        assertThat(admission.limit()).isLessThan(400);
        assertThat(caps).hasSize(2).last().isEqualTo(admission.limit());
    }

    @Test
    void aSignalThatFailsKeepsTheLimit() {
        AdaptiveAdmission broken = new AdaptiveAdmission(new CarrierLimit(10, 1000, 200), () -> {
            throw new IllegalStateException("no bean");
        }, "test", running::get, waiting::get, (source, cap) -> caps.add(cap));
        broken.tick();
        broken.tick();
        assertThat(caps).isEmpty();
        assertThat(broken.limit()).isEqualTo(200);
    }
}
