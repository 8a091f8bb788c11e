package io.github.slingvt.jdbc;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The JDBC connections the calling thread has borrowed so far through Sling VT's counting data sources. A caller
 * reads it before and after a piece of work on the same thread; the difference is that work's round trips. Always
 * registered; without a counting data source (a segment-tar repository) the count stays 0.
 */
@ProviderType
public interface RoundTrips {

    /** Connections borrowed by the current thread since it started. */
    long onThisThread();

    /** Connections borrowed by all threads since this bundle started. */
    long total();
}
