package io.github.slingvt.http.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class AdaptiveAdmissionTest {

    private final AtomicReference<CarrierReading> reading = new AtomicReference<>(CarrierReading.ofCounts(2, 0, 0));
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong finished = new AtomicLong();
    private final List<Integer> caps = new CopyOnWriteArrayList<>();
    private final List<Integer> bounds = new CopyOnWriteArrayList<>();

    /** The gate's counts from the fields above; what it is handed lands in caps and bounds. */
    private final AdaptiveAdmission.Gate gate = new AdaptiveAdmission.Gate() {
        @Override
        public int running() {
            return running.get();
        }

        @Override
        public int queued() {
            return waiting.get();
        }

        @Override
        public long finished() {
            return finished.get();
        }

        @Override
        public void moveCap(Object source, int cap) {
            caps.add(cap);
        }

        @Override
        public void boundQueue(Object source, int max) {
            bounds.add(max);
        }
    };

    private final AdaptiveAdmission admission = new AdaptiveAdmission(new CarrierLimit(10, 1000, 200), reading::get,
            "test", gate);

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
        }, "test", gate);
        broken.tick();
        broken.tick();
        assertThat(caps).isEmpty();
        assertThat(broken.limit()).isEqualTo(200);
    }

    @Test
    void withoutCountsTheLimitNeverFallsBelowAPoolsSize() {
        assertThat(AdaptiveAdmission.floor(20, 10_000, true)).as("counts: the configured minimum").isEqualTo(20);
        assertThat(AdaptiveAdmission.floor(20, 10_000, false)).as("CPU load: a pool's 200").isEqualTo(200);
        assertThat(AdaptiveAdmission.floor(500, 10_000, false)).as("a higher minimum stays").isEqualTo(500);
        assertThat(AdaptiveAdmission.floor(20, 100, false)).as("never above the maximum").isEqualTo(100);

        // A machine busy with other processes reads as saturated for as long as it lasts: the limit holds at 200.
        AdaptiveAdmission cpu = new AdaptiveAdmission(new CarrierLimit(AdaptiveAdmission.floor(20, 10_000, false),
                10_000, 200), () -> CarrierReading.ofCpuLoad(2, 0.99), "test", gate);
        running.set(200);
        waiting.set(800);
        for (int i = 0; i < 50; i++) {
            cpu.tick();
        }
        assertThat(cpu.limit()).isEqualTo(200);
        assertThat(cpu.floor()).isEqualTo(200);
    }

    @Test
    void onceASecondTheQueuesGrowthBoundsItAndTheBoundIsHandedOnOnlyWhenItChanges() {
        // Carriers with room and nobody waiting for a second: no bound.
        for (int i = 0; i < AdaptiveAdmission.GROWTH_PERIODS; i++) {
            admission.tick();
        }
        assertThat(bounds).isEmpty();
        assertThat(admission.queueBound()).isEqualTo(Integer.MAX_VALUE);

        // 1,000 finish a second while 500 more a second join the queue: bounded after three seconds of growth.
        for (int second = 1; second <= QueueGrowth.GROWING_WINDOWS; second++) {
            finished.addAndGet(1000);
            waiting.addAndGet(500);
            for (int i = 0; i < AdaptiveAdmission.GROWTH_PERIODS; i++) {
                admission.tick();
            }
        }
        assertThat(bounds).containsExactly(1000);
        assertThat(admission.queueBound()).isEqualTo(1000);
    }
}
