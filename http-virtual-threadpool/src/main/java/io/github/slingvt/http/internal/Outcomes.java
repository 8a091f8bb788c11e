package io.github.slingvt.http.internal;

import java.util.function.Consumer;

/**
 * What the {@link AdmissionGate} does with one request: exactly one of these, once. {@code admit} runs it with its
 * slot taken (the callee gives the slot back when the request ends); {@code reject} answers it as refused (queue
 * full, timed out, or displaced by a newer request); {@code failed} drops it because Jetty failed it while it waited
 * (idle timeout, HTTP/2 stream reset, a failed connection: the only ways Jetty tells that a client left), with
 * Jetty's failure.
 */
record Outcomes(Consumer<Slot> admit, Runnable reject, Consumer<Throwable> failed) {

    /** Registers nothing: a request that Jetty cannot fail while it waits (tests). */
    static final Consumer<Consumer<Throwable>> NO_FAILURES = listener -> { };

    /** Admits with {@code onAdmit}; a failure by Jetty ends in {@code onFailed}. */
    static Outcomes of(Runnable onAdmit, Runnable onReject, Runnable onFailed) {
        return new Outcomes(slot -> onAdmit.run(), onReject, failure -> onFailed.run());
    }
}
