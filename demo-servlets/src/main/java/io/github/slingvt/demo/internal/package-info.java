/**
 * The demo servlets and their registration: {@code /bin/vt/work.json|.bin}, {@code work-async.json},
 * {@code slow.json}, {@code status.json}, the anonymous limits and the bundle's configuration. The work they do is in
 * {@code .steps}, the answers and parameter checks in {@code .http}, the demo content in {@code .content}, the
 * Sling Event probe in {@code .jobs}, the repository status in {@code .status}.
 */
package io.github.slingvt.demo.internal;
