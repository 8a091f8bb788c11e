/**
 * The demo bundle's implementation: the workload servlets and their steps, parameter validation and anonymous
 * limits, content seeding and the scratch sweep, the job probe, and the repository status printer. About 30 classes
 * in one package because they share package-private helpers (JSON answers, parameter ranges, the work report) and
 * nothing here is an API; issue #15 splits it by concern (servlets, content, probes) when the house is reorganised.
 */
package io.github.slingvt.demo.internal;
