/**
 * What other bundles may program against in the HTTP bundle: a read-only view of the request threading
 * ({@link io.github.slingvt.http.api.HttpThreads}), the live mode switch
 * ({@link io.github.slingvt.http.api.HttpModeSwitch}) and, for metrics, a whiteboard of
 * {@link io.github.slingvt.http.api.RequestListener}s told of every request. Sling VT's observability bundle
 * (console page, status printer, JMX, health check, metrics) reads the HTTP bundle through these services only; the
 * implementation stays in {@code .internal}.
 */
@Export
@Version("1.5.0")
package io.github.slingvt.http.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
