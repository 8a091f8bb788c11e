package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every path that ends a request gives its slot back exactly once, or takes none. */
class SlotGiveBackTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AdmissionGate gate = new AdmissionGate(timer);
    private final List<String> events = new CopyOnWriteArrayList<>();
    /** The slot of each admitted request, by name. */
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private Outcomes outcomes(String name, Consumer<Slot> admit) {
        return new Outcomes(admit, () -> events.add("reject " + name), failure -> events.add("failed " + name));
    }

    /** Enters a request that keeps its slot until the test gives it back. */
    private void enter(String name) {
        enter(name, Outcomes.NO_FAILURES);
    }

    /** As {@link #enter(String)}, registering Jetty's failure listener with {@code failures} if it waits. */
    private void enter(String name, Consumer<Consumer<Throwable>> failures) {
        gate.enter(outcomes(name, slot -> {
            events.add("admit " + name);
            slots.put(name, slot);
        }), failures);
    }

    private void enterThrowing(String name) {
        gate.enter(outcomes(name, slot -> {
            events.add("admit " + name);
            throw new IllegalStateException(name + " cannot start");
        }), Outcomes.NO_FAILURES);
    }

    @Test
    void aSlotGivenBackTwiceFreesOnePlace() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        enter("b");
        enter("c");
        slots.get("a").giveBack();
        slots.get("a").giveBack();
        assertThat(events).containsExactly("admit a", "admit b");
        assertThat(gate.running()).isEqualTo(1);
        assertThat(gate.queued()).as("c still waits for b's slot").isEqualTo(1);
    }

    @Test
    void anAdmissionThatThrowsAtOnceGivesItsSlotBack() {
        gate.setLimits(1, 10, 60_000);
        assertThatThrownBy(() -> enterThrowing("a")).isInstanceOf(IllegalStateException.class);
        assertThat(gate.running()).isZero();
        enter("b");
        assertThat(events).containsExactly("admit a", "admit b");
        assertThat(gate.queued()).isZero();
    }

    @Test
    void anAdmissionThatThrowsInTheQueueGivesItsSlotToTheNextWaiter() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        enterThrowing("b");
        enter("c");
        slots.get("a").giveBack();
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        assertThat(gate.running()).as("c's slot only").isEqualTo(1);
        assertThat(gate.queued()).isZero();
        slots.get("c").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void anAdmissionThatGaveItsSlotBackBeforeItThrewIsNotGivenBackTwice() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        gate.enter(outcomes("b", slot -> {
            events.add("admit b");
            slot.giveBack();
            throw new IllegalStateException("b fails after giving its slot back");
        }), Outcomes.NO_FAILURES);
        enter("c");
        enter("d");
        slots.get("a").giveBack();
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        assertThat(gate.running()).as("c's slot only").isEqualTo(1);
        assertThat(gate.queued()).as("d waits for c's slot").isEqualTo(1);
    }

    @Test
    void aWaiterFailedByJettyIsPassedOverAndTheFreedSlotGoesToTheNext() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        AtomicReference<Consumer<Throwable>> jetty = new AtomicReference<>();
        enter("b", jetty::set);
        enter("c");
        jetty.get().accept(new TimeoutException("Idle timeout"));
        slots.get("a").giveBack();
        assertThat(events).containsExactly("admit a", "failed b", "admit c");
        assertThat(gate.running()).as("c's slot only").isEqualTo(1);
        slots.get("c").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aRequestAdmittedAtOnceRegistersNoFailureListener() {
        gate.setLimits(1, 10, 60_000);
        AtomicReference<Consumer<Throwable>> jetty = new AtomicReference<>();
        enter("a", jetty::set);
        assertThat(jetty.get()).as("it never waited: its failures are the running request's own").isNull();
        assertThat(events).containsExactly("admit a");
        slots.get("a").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aRefusedRequestTakesNoSlot() {
        gate.setLimits(1, 1, 60_000);
        enter("a");
        enter("b");
        enter("c");
        assertThat(events).containsExactly("admit a", "reject c");
        slots.get("a").giveBack();
        slots.get("b").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aWaitThatTimesOutTakesNoSlot() throws Exception {
        gate.setLimits(1, 10, 50);
        enter("a");
        enter("b");
        await(() -> events.contains("reject b"));
        assertThat(gate.queued()).isZero();
        slots.get("a").giveBack();
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.running()).isZero();
    }

    @Test
    void aWaiterThatJettyFailsLeavesTheQueueAtOnceAndTakesNoSlot() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        AtomicReference<Consumer<Throwable>> jetty = new AtomicReference<>();
        enter("b", jetty::set);
        assertThat(jetty.get()).as("a listener while b waits").isNotNull();
        jetty.get().accept(new TimeoutException("Idle timeout"));
        jetty.get().accept(new TimeoutException("Idle timeout, again"));
        assertThat(events).containsExactly("admit a", "failed b");
        assertThat(gate.queued()).isZero();
        slots.get("a").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aFailureOfAnAdmittedRequestLeavesItsSlotToIt() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        AtomicReference<Consumer<Throwable>> jetty = new AtomicReference<>();
        enter("b", jetty::set);
        slots.get("a").giveBack();
        jetty.get().accept(new TimeoutException("Idle timeout"));
        assertThat(events).as("b runs, and ends its own way").containsExactly("admit a", "admit b");
        assertThat(gate.running()).isEqualTo(1);
        slots.get("b").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aRequestThatWaitsOnceTheClockIsShutDownIsRefusedRatherThanLeftWaiting() {
        gate.setLimits(1, 10, 60_000);
        enter("a");
        timer.shutdown();
        enter("b");
        assertThat(events).containsExactly("admit a", "reject b");
        assertThat(gate.queued()).isZero();
        slots.get("a").giveBack();
        assertThat(gate.running()).isZero();
    }

    @Test
    void aLoweredCapAdmitsNobodyUntilTheRunningAreBelowIt() {
        gate.setLimits(2, 10, 60_000);
        enter("a");
        enter("b");
        enter("c");
        gate.setLimits(1, 10, 60_000);
        slots.get("a").giveBack();
        assertThat(events).as("b alone fills the lowered cap").containsExactly("admit a", "admit b");
        slots.get("b").giveBack();
        assertThat(events).containsExactly("admit a", "admit b", "admit c");
        gate.setLimits(0, 10, 60_000);
        slots.get("c").giveBack();
        assertThat(gate.running()).as("a switch to unbounded keeps the count").isZero();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
