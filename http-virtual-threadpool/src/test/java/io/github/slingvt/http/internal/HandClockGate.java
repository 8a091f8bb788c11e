package io.github.slingvt.http.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An admission gate on a clock moved by hand, its requests named and their outcomes recorded in order ("admit a",
 * "reject b"): the fixture of the gate's order and timeout tests.
 */
final class HandClockGate {

    /** The gate's time of arrivals, admissions and timeouts, in nanoseconds. */
    final AtomicLong clock = new AtomicLong();
    final AdmissionGate gate;
    final List<String> events = new CopyOnWriteArrayList<>();

    HandClockGate(ScheduledExecutorService timer) {
        this.gate = new AdmissionGate(timer, clock::get);
    }

    /** A request named {@code name} enters; its outcome is recorded. */
    void enter(String name) {
        enter(gate, () -> events.add("admit " + name), () -> events.add("reject " + name));
    }

    /** A request that Jetty does not fail while it waits enters {@code gate}: admitted or rejected. */
    static void enter(AdmissionGate gate, Runnable onAdmit, Runnable onReject) {
        gate.enter(Outcomes.of(onAdmit, onReject, () -> { }), Outcomes.NO_FAILURES);
    }

    /** Moves the clock to {@code millis}. */
    void at(long millis) {
        clock.set(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
