/**
 * One demo request's work, step by step: the parsed request (reads, writes, file, idle delay, CPU, fanout), the
 * repository and local steps that do it, the downstream fanout, and the report each step adds to.
 */
package io.github.slingvt.demo.internal.steps;
