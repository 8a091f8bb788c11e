package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.HttpThreads;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

@ObjectClassDefinition(
        name = "Sling VT - HTTP request threads",
        description = "Runs the requests of Felix HTTP Jetty 12 on virtual threads (one new virtual thread per request, "
                + "optionally bounded with admission control) or on Jetty's platform thread pool. "
                + "Changes apply live: requests in flight finish on the thread they started on.")
public @interface VirtualThreadsConfig {

    String PID = HttpThreads.CONFIGURATION_PID;

    @AttributeDefinition(
            name = "Mode",
            description = "virtual: each request runs on a new virtual thread; acceptors and selectors stay on platform threads. "
                    + "kernel: requests run on Jetty's platform QueuedThreadPool, as without this bundle.",
            options = {
                @Option(label = "virtual", value = "virtual"),
                @Option(label = "kernel", value = "kernel")
            })
    String mode() default "virtual";

    @AttributeDefinition(
            name = "Max concurrent requests",
            description = "Virtual mode only. 0 = unbounded. A number from 1 to 1000000: a request is admitted before its "
                    + "virtual thread is created, so running requests and live request threads never exceed this "
                    + "number; others wait in a bounded queue. auto = adaptive admission: the cap starts at 200 and "
                    + "falls by 10 % per 100 ms in which the carrier threads stay saturated; while half of it is in use"
                    + " it grows by one per finished request when the carriers have headroom, and by (1.5 x latency "
                    + "measured with headroom + 100 ms) / 1 s when they are saturated, so that it settles near 1.5 x "
                    + "Little's concurrency and at no less than 100 ms of throughput; between the adaptive min and max "
                    + "limits below (Netflix concurrency-limits, AIMD). With Oak on a database, every request in flight"
                    + " may wait for a pooled connection: keep the cap divided by the database's round trips per second"
                    + " far below the pool's maxWait.")
    String maxConcurrentRequests() default "0";

    @AttributeDefinition(
            name = "Adaptive min limit",
            description = "maxConcurrentRequests=auto: the cap never falls below this. 1 to 1000000.")
    int adaptiveMinLimit() default 20;

    @AttributeDefinition(
            name = "Adaptive max limit",
            description = "maxConcurrentRequests=auto: the cap never rises above this. From the min limit to 1000000.")
    int adaptiveMaxLimit() default 10000;

    @AttributeDefinition(
            name = "Queue timeout (ms)",
            description = "Bounded virtual mode: how long a request may wait for admission before it is answered "
                    + "503 Service Unavailable with a Retry-After header. 1 to 600000.")
    long queueTimeout() default 2000;

    @AttributeDefinition(
            name = "Max queued requests",
            description = "Bounded virtual mode: how many requests may wait for admission at once; beyond this they are "
                    + "answered 503 at once, so overload cannot exhaust memory. 0 to 1000000.")
    int maxQueuedRequests() default 10000;

    @AttributeDefinition(
            name = "Retry-After (s)",
            description = "Value of the Retry-After header of 503 answers. 1 to 3600.")
    int retryAfterSeconds() default 1;

    @AttributeDefinition(
            name = "Kernel max threads",
            description = "Kernel mode: maximum threads of Jetty's QueuedThreadPool (Jetty's default is 200). 8 to 100000.")
    int kernelMaxThreads() default 200;

    @AttributeDefinition(
            name = "Virtual mode platform threads",
            description = "Virtual mode: maximum threads of Jetty's QueuedThreadPool, which then only runs acceptors, "
                    + "selectors, connection setup and (bounded mode) admission, all short tasks; a burst of new "
                    + "connections queues instead of growing the pool. 0 (default) sizes it automatically: the "
                    + "threads Jetty's connectors lease (acceptors, selectors, reserved threads) plus 2, at least 4, "
                    + "and lowers Jetty's minimum of idle threads to match. Otherwise 8 to 100000.")
    int virtualModePlatformThreads() default 0;
}
