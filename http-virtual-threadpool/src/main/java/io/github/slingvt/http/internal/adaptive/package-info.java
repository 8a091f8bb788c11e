/**
 * Adaptive admission ({@code maxConcurrentRequests=auto}): the concurrency limit that follows the load, the signal
 * it follows (carrier saturation) and the clock that reads it. Not exported; the HTTP bundle's dispatch uses it.
 */
package io.github.slingvt.http.internal.adaptive;
