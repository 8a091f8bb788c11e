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
            description = "Virtual mode only. auto (the default): admission by the carrier threads, starting at 200 "
                    + "and judged every half second: when more runnable virtual threads than carriers waited for a "
                    + "carrier the whole time, the limit falls to what keeps the carriers busy: the requests that "
                    + "wait off the carriers (never cut), one running and one queued per carrier and the square root "
                    + "of the waits as a margin; when a carrier had room while requests wait for "
                    + "admission, the limit doubles; always between the adaptive min and max limits (on JDK 21 to 23 "
                    + "this process's CPU time stands in for the carriers). The rest wait, first in first out, up to the "
                    + "client timeout; while the queue is in overload (its oldest waited over 100 ms the whole half "
                    + "second while the requests in the server grew) the newest go first. unbounded (or 0): every "
                    + "request gets its virtual thread at once, also when the carriers are saturated. A number from 1 "
                    + "to 1000000: a "
                    + "request is admitted before its virtual thread is created, so running requests and live request "
                    + "threads never exceed this number; others wait in a bounded queue (queue timeout). With Oak on a "
                    + "database, every request in flight may wait for a pooled connection: keep the cap divided by the "
                    + "database's round trips per second far below the pool's maxWait.")
    String maxConcurrentRequests() default "auto";

    @AttributeDefinition(
            name = "Adaptive min limit",
            description = "maxConcurrentRequests=auto: the cap never falls below this. On JDK 21 to 23, where the "
                    + "process's CPU time stands in for the carriers, it never falls below 200 either. 1 to 1000000.")
    int adaptiveMinLimit() default 20;

    @AttributeDefinition(
            name = "Adaptive max limit",
            description = "maxConcurrentRequests=auto: the cap never rises above this (by default it has no ceiling "
                    + "of its own: requests that wait off the carriers cost none). From the min limit to 1000000.")
    int adaptiveMaxLimit() default 1000000;

    @AttributeDefinition(
            name = "Client timeout (s)",
            description = "How long clients wait for an answer (the load balancer's or browser's timeout). "
                    + "maxConcurrentRequests=auto and kernel mode hold a waiting request at most this long, then answer "
                    + "503 with Retry-After. 1 to 3600.")
    int clientTimeout() default 60;

    @AttributeDefinition(
            name = "Queue timeout (ms)",
            description = "Fixed maxConcurrentRequests: how long a request may wait for admission before it is answered "
                    + "503 Service Unavailable with a Retry-After header. 1 to 600000.")
    long queueTimeout() default 2000;

    @AttributeDefinition(
            name = "Max queued requests",
            description = "Bounded virtual mode and kernel mode: how many requests may wait for admission at once; beyond this a "
                    + "request is answered 503 at once (the newcomer, or the oldest waiting one while the newest are served "
                    + "first), so overload cannot exhaust memory. 0 to 1000000.")
    int maxQueuedRequests() default 10000;

    @AttributeDefinition(
            name = "Retry-After (s)",
            description = "Value of the Retry-After header of 503 answers. 1 to 3600.")
    int retryAfterSeconds() default 1;

    @AttributeDefinition(
            name = "Kernel max threads",
            description = "Kernel mode: requests that run at once on Jetty's QueuedThreadPool (Jetty's default pool "
                    + "is 200). The pool gets this many threads plus the ones its connectors lease (acceptor, "
                    + "selectors) and 2 spare, which parse request heads and answer the web console while all "
                    + "requests run. 8 to 100000.")
    int kernelMaxThreads() default 200;

    @AttributeDefinition(
            name = "Virtual mode platform threads",
            description = "Virtual mode: maximum threads of Jetty's QueuedThreadPool, which then only runs acceptors, "
                    + "selectors, connection setup and (bounded mode) admission, all short tasks; a burst of new "
                    + "connections queues instead of growing the pool. 0 (default) sizes it automatically: the "
                    + "threads Jetty's connectors lease (acceptors, selectors, reserved threads) plus 2, at least 4, "
                    + "and lowers Jetty's minimum of idle threads to match. Otherwise 8 to 100000.")
    int virtualModePlatformThreads() default 0;

    @AttributeDefinition(
            name = "Connection header cache",
            description = "Both modes: entries of the header cache that Jetty's HTTP/1 parser keeps for each connection "
                    + "of Felix's connectors. 0 (the default): no cache per connection; Jetty reads each request's "
                    + "header values anew, well-known ones still from its shared table. -1 keeps the size Felix "
                    + "configured (Jetty's 1024), which costs every keep-alive connection about 96 KB of heap once it "
                    + "has served a request, also while its next request waits for admission (8,000 connections: "
                    + "about 790 MB). Holds for connections opened after a change. -1 to 100000.")
    int connectionHeaderCache() default 0;
}
