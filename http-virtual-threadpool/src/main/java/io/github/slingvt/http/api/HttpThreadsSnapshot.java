package io.github.slingvt.http.api;

/**
 * The HTTP request threading at one moment. Once idle: {@code admitted + rejected} = requests seen and
 * {@code completed = admitted}.
 *
 * @param mode the mode in force when the counters were read
 * @param maxConcurrentRequests the admission cap of virtual mode; 0 = unbounded
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
 */
public record HttpThreadsSnapshot(ThreadingMode mode, int maxConcurrentRequests, int kernelMaxThreads,
        long inFlight, long peakInFlight, int queued, long admitted, long rejected, long completed,
        long virtualThreadsStarted, long refusedConfigurations, String lastConfigurationError) {

    /** Whether virtual mode caps the requests in flight. */
    public boolean bounded() {
        return maxConcurrentRequests > 0;
    }
}
