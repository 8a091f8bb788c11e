/**
 * The HTTP bundle's implementation. Today one package of about 30 classes: the Jetty hook, dispatch and admission,
 * the settings, and the observability parts (JFR pinning detector, scheduler statistics, health check, console page,
 * status printer, JMX) that grew beside them and share their state package-privately. Issue #15 moves observability
 * into a bundle of its own behind small exported API packages and leaves hook, dispatch and admission here.
 */
package io.github.slingvt.http.internal;
