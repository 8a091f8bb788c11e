/**
 * The Prometheus endpoint: every Dropwizard {@code MetricRegistry} service of the instance (Sling's, Oak's where
 * present, Sling VT's), labelled by its registry name, and the JVM, in the text exposition format of the Prometheus
 * client library.
 */
package io.github.slingvt.observability.internal.prometheus;
