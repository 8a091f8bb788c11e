/** The Sling Event job probe ({@code /bin/vt/jobs}): which kind of thread Sling's job pool runs a job on. */
package io.github.slingvt.demo.internal.jobs;
