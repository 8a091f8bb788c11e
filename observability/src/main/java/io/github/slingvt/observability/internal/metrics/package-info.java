/**
 * Sling VT's figures in Sling's metrics form: a Dropwizard {@code MetricRegistry} service named {@code slingvt}
 * (request latency by thread kind, admission meters, gauges of the HTTP threading, the carriers, the pinning detector
 * and the Sling thread pools), fed by the HTTP bundle's {@code RequestListener} whiteboard, and the live series the
 * console page charts.
 */
package io.github.slingvt.observability.internal.metrics;
