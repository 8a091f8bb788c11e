package io.github.slingvt.http.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told of every request that passes the HTTP bundle's admission path: a whiteboard service that another bundle
 * registers to keep metrics (Sling VT's observability bundle records latency timers and meters from it). Called on
 * the request's own thread or Jetty's, in the request path: an implementation must be cheap, must not block and must
 * not throw (an exception is logged and dropped). Events before a listener is registered are not replayed; the
 * counters of {@link HttpThreads#snapshot()} count since the HTTP bundle started.
 *
 * @since 1.3
 */
@ConsumerType
public interface RequestListener {

    /** A request was admitted and starts on a thread of the given kind ({@code VIRTUAL} or {@code KERNEL}). */
    default void admitted(ThreadingMode threadKind) {
    }

    /**
     * An admitted request ended: its response is complete and its thread is free.
     *
     * @param threadKind the kind of thread it ran on
     * @param nanos from its arrival at the HTTP bundle's handler (its head parsed) to its end, the wait for
     *        admission included: what the client waited for, less the network
     */
    void completed(ThreadingMode threadKind, long nanos);

    /** A request was answered 503 by admission control (queue full or its wait timed out). */
    default void rejected() {
    }

    /**
     * A request was dropped while it waited for admission because Jetty failed it (an idle timeout, an HTTP/2 stream
     * reset, a failed connection).
     */
    default void abandoned() {
    }
}
