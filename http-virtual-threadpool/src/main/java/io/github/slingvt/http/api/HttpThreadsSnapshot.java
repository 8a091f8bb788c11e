package io.github.slingvt.http.api;

/**
 * The HTTP request threading at one moment. At any moment: {@code admitted + rejected + abandoned} = requests seen
 * (those that passed the admission path) and {@code completed + inFlight = admitted}; {@code queued} waits besides.
 *
 * @param mode the mode in force when the counters were read
 * @param maxConcurrentRequests the fixed admission cap of virtual mode as configured; 0 = unbounded or adaptive
 * @param kernelMaxThreads the size of Jetty's pool in kernel mode
 * @param inFlight requests running now
 * @param peakInFlight the most requests that ran at once since start
 * @param queued requests waiting for admission now (bounded virtual mode)
 * @param admitted requests admitted since start
 * @param rejected requests answered 503 by admission control since start
 * @param completed admitted requests that finished
 * @param virtualThreadsStarted admitted requests that ran on a virtual thread
 * @param refusedConfigurations configurations refused as invalid since start (the previous settings stayed)
 * @param lastConfigurationError why the last one was refused; empty if none was
 * @param adaptive whether the cap is adaptive ({@code maxConcurrentRequests=auto}); since 1.1
 * @param concurrencyLimit the cap in force now: the fixed cap, the adaptive limit's current value, or 0 when
 *        unbounded; since 1.1
 * @param abandoned requests dropped while they waited for admission because Jetty failed them (an idle timeout, an
 *        HTTP/2 stream reset, a failed connection: how Jetty tells that a client left); since 1.2
 * @param clientPatienceMillis always 0 since 1.5: the queue no longer learns the clients' patience (it never reads
 *        a waiting request's connection); since 1.4, deprecated since 1.5
 * @param newestFirst whether the admission queue serves its newest waiting requests first now, as it does while it
 *        is in overload (its oldest waited over the target a whole interval while the requests held grew); since 1.5
 */
public record HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads,
        long inFlight, long peakInFlight, int queued, long admitted, long rejected, long completed,
        long virtualThreadsStarted, long refusedConfigurations, String lastConfigurationError, boolean adaptive,
        int concurrencyLimit, long abandoned, @Deprecated long clientPatienceMillis, boolean newestFirst) {

    /** A snapshot of a fixed cap or none, as of version 1.0. */
    public HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads, long inFlight,
            long peakInFlight, int queued, long admitted, long rejected, long completed, long virtualThreadsStarted,
            long refusedConfigurations, String lastConfigurationError) {
        this(mode, maxConcurrentRequests, kernelMaxThreads, inFlight, peakInFlight, queued, admitted, rejected,
                completed, virtualThreadsStarted, refusedConfigurations, lastConfigurationError, false,
                maxConcurrentRequests, 0);
    }

    /** A snapshot as of version 1.1, without abandoned requests. */
    public HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads, long inFlight,
            long peakInFlight, int queued, long admitted, long rejected, long completed, long virtualThreadsStarted,
            long refusedConfigurations, String lastConfigurationError, boolean adaptive, int concurrencyLimit) {
        this(mode, maxConcurrentRequests, kernelMaxThreads, inFlight, peakInFlight, queued, admitted, rejected,
                completed, virtualThreadsStarted, refusedConfigurations, lastConfigurationError, adaptive,
                concurrencyLimit, 0);
    }

    /** A snapshot as of version 1.2, without the clients' patience. */
    public HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads, long inFlight,
            long peakInFlight, int queued, long admitted, long rejected, long completed, long virtualThreadsStarted,
            long refusedConfigurations, String lastConfigurationError, boolean adaptive, int concurrencyLimit,
            long abandoned) {
        this(mode, maxConcurrentRequests, kernelMaxThreads, inFlight, peakInFlight, queued, admitted, rejected,
                completed, virtualThreadsStarted, refusedConfigurations, lastConfigurationError, adaptive,
                concurrencyLimit, abandoned, 0);
    }

    /** A snapshot as of version 1.4, without the queue's order. */
    public HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads, long inFlight,
            long peakInFlight, int queued, long admitted, long rejected, long completed, long virtualThreadsStarted,
            long refusedConfigurations, String lastConfigurationError, boolean adaptive, int concurrencyLimit,
            long abandoned, long clientPatienceMillis) {
        this(mode, maxConcurrentRequests, kernelMaxThreads, inFlight, peakInFlight, queued, admitted, rejected,
                completed, virtualThreadsStarted, refusedConfigurations, lastConfigurationError, adaptive,
                concurrencyLimit, abandoned, clientPatienceMillis, false);
    }

    /** Whether virtual mode caps the requests in flight, with a fixed or an adaptive cap. */
    public boolean bounded() {
        return maxConcurrentRequests > 0 || adaptive;
    }

    /** The cap as configured, as an operator writes it: a number, {@code auto}, or 0 (unbounded). */
    public String capLabel() {
        return adaptive ? "auto" : Integer.toString(maxConcurrentRequests);
    }
}
