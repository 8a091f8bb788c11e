/**
 * End-to-end ITs against the launched feature, in one package of about 40 classes on purpose: the ITs share
 * package-private support (SlingInstance and its builder, the shared instance, the console, overload and demo
 * helpers, the error-log allowlist) that is not an API of anything, and a test class per concern is easier to find
 * in one flat list than in sub-packages that would force that support to be public.
 */
package io.github.slingvt.it.e2e;
