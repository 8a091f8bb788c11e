/**
 * The HTTP bundle's implementation: the Jetty hook ({@code VirtualThreadsConnectorFactory}, {@code ServerInstaller},
 * {@code HookConnector}), dispatch and admission ({@code DispatchHandler}, {@code AdmissionGate}, {@code Waiter},
 * {@code Slot}, {@code RunningCap}, {@code Outcomes}, {@code QueueDiscipline}, {@code WaitTimeouts},
 * {@code RequestCounters}), the settings ({@code VirtualThreadsConfig}, {@code ThreadingSettings},
 * {@code ThreadingState}) and the live switch ({@code ModeSwitcher}). Sixteen classes in one package because
 * dispatch, admission and the hook share package-private state (the gate's slots, the installation of each server) that
 * no other bundle may reach; the adaptive limit, which only reads, lives in {@code internal.adaptive}. What other
 * bundles see is in {@code io.github.slingvt.http.api}; the console, status printer, JMX and health check live in the
 * observability bundle.
 */
package io.github.slingvt.http.internal;
