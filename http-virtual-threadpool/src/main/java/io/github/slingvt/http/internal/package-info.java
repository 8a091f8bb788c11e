/**
 * The HTTP bundle's implementation: the Jetty hook ({@code VirtualThreadsConnectorFactory}, {@code ServerInstaller},
 * {@code HookConnector}), dispatch and admission ({@code DispatchHandler}, {@code AdmissionGate},
 * {@code RequestCounters}), the settings ({@code VirtualThreadsConfig}, {@code ThreadingSettings},
 * {@code ThreadingState}) and the live switch ({@code ModeSwitcher}). What other bundles see is in
 * {@code io.github.slingvt.http.api}; the console, status printer, JMX and health check live in the observability
 * bundle.
 */
package io.github.slingvt.http.internal;
