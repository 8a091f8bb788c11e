package io.github.slingvt.observability.internal.metrics;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - metrics",
        description = "Publishes Sling VT's figures as a Sling Commons Metrics registry (a Dropwizard MetricRegistry "
                + "service with name=slingvt: request latency by thread kind, admitted/rejected/completed/abandoned "
                + "meters, requests in flight and queued, the concurrency limit, the carriers, pinned virtual threads, "
                + "the Sling thread pools) and samples them every second for the live chart of the console page.")
public @interface MetricsConfig {

    String PID = "io.github.slingvt.observability.Metrics";

    @AttributeDefinition(
            name = "Enabled",
            description = "Record the metrics. Off: no registry, no latency recording in the request path and no live "
                    + "chart; the console page, status and JMX still show the counters.")
    boolean enabled() default true;
}
