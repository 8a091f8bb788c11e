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
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            admission.tick();
        }
        assertThat(caps).containsExactly(400);
        waiting.set(0);
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            admission.tick();
        }
        assertThat(caps).as("no change, nothing handed on").containsExactly(400);

        reading.set(CarrierReading.ofCounts(2, 2, 398));
        for (int i = 0; i < CarrierLimit.INTERVAL_READINGS; i++) {
            admission.tick();
        }
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

    @Test
    void withoutCountsTheLimitNeverFallsBelowAPoolsSize() {
        assertThat(AdaptiveAdmission.floor(20, 10_000, true)).as("counts: the configured minimum").isEqualTo(20);
        assertThat(AdaptiveAdmission.floor(20, 10_000, false)).as("CPU time: a pool's 200").isEqualTo(200);
        assertThat(AdaptiveAdmission.floor(500, 10_000, false)).as("a higher minimum stays").isEqualTo(500);
        assertThat(AdaptiveAdmission.floor(20, 100, false)).as("never above the maximum").isEqualTo(100);

        // A process that keeps its CPUs busy reads as saturated for as long as it lasts: the limit holds at 200.
        AdaptiveAdmission cpu = new AdaptiveAdmission(new CarrierLimit(AdaptiveAdmission.floor(20, 10_000, false),
                10_000, 200), () -> CarrierReading.ofCpuShare(2, 0.99), "test", () -> 200, () -> 800,
                (source, cap) -> caps.add(cap));
        for (int i = 0; i < 50; i++) {
            cpu.tick();
        }
        assertThat(cpu.limit()).isEqualTo(200);
        assertThat(cpu.floor()).isEqualTo(200);
    }
}
