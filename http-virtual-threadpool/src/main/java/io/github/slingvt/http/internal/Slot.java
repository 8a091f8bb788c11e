package io.github.slingvt.http.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One running request's place under the {@link AdmissionGate}'s cap, taken already: given back exactly once, however
 * many of the paths that end a request try (its completion, a start that failed, an admission callback that threw),
 * so that the cap neither leaks a place nor hands one out twice. It is its own given-back flag (an AtomicBoolean), so
 * that every request allocates one object for it, not two.
 */
final class Slot extends AtomicBoolean {

    private final AdmissionGate gate;

    /** @param gate the gate whose running count this slot is part of, counted already */
    Slot(AdmissionGate gate) {
        this.gate = gate;
    }

    /** Gives the slot back to its gate (which admits a waiter into it); only the first call does. */
    void giveBack() {
        if (claim()) {
            gate.exit();
        }
    }

    /**
     * Claims the give-back for a caller that returns the place to the gate itself (a queue being drained, which must
     * not recurse); true only for the first claim, after which {@link #giveBack()} does nothing.
     */
    boolean claim() {
        return compareAndSet(false, true);
    }

    /**
     * Hands a slot just taken to the request admitted into it, which gives it back when it ends; if the admission
     * throws before the request took the slot over, the slot is given back here, and the failure goes on to the caller.
     */
    static void handOver(Slot slot, Consumer<Slot> admit) {
        try {
            admit.accept(slot);
        } catch (RuntimeException | Error e) {
            slot.giveBack();
            throw e;
        }
    }
}
