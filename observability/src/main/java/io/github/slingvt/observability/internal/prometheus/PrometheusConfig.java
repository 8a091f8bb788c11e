package io.github.slingvt.observability.internal.prometheus;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - Prometheus endpoint",
        description = "GET " + PrometheusServlet.PATH + " answers every metrics registry of the instance (Sling "
                + "Commons Metrics: Sling's, Oak's, Sling VT's), labelled by registry name, and the JVM (threads, "
                + "memory, GC), in Prometheus' text format. A user logged in to Sling may read it; anonymous "
                + "requests get 401 unless allowed here.")
public @interface PrometheusConfig {

    String PID = "io.github.slingvt.observability.Prometheus";

    @AttributeDefinition(
            name = "Anonymous access",
            description = "Let requests without a login read the metrics. Off by default: give the scraper a Sling "
                    + "user of its own (Prometheus: basic_auth in the scrape config).")
    boolean anonymousAccess() default false;

    @AttributeDefinition(
            name = "JVM metrics",
            description = "Add the JVM's figures (jvm_* and process_*: threads, memory pools, GC, classes, CPU) from "
                    + "the Prometheus client's JVM collectors.")
    boolean jvmMetrics() default true;
}
