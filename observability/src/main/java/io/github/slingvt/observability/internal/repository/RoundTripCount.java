package io.github.slingvt.observability.internal.repository;

import java.util.function.Supplier;

import org.osgi.framework.BundleContext;
import org.osgi.util.tracker.ServiceTracker;

import io.github.slingvt.jdbc.RoundTrips;

/**
 * The database round trips counted by the bundle jdbc-round-trips, when it is there. Its package is an optional
 * import: on an instance installed without it the package is not wired, and no class that names {@link RoundTrips}
 * may be loaded; {@link #open} checks before it creates one.
 */
final class RoundTripCount implements Supplier<Long>, AutoCloseable {

    private final ServiceTracker<RoundTrips, RoundTrips> tracker;

    private RoundTripCount(BundleContext context) {
        this.tracker = new ServiceTracker<>(context, RoundTrips.class, null);
        tracker.open();
    }

    /** A count that follows the service, or {@code null} when the package is not wired to this bundle. */
    static RoundTripCount open(BundleContext context) {
        try {
            Class.forName("io.github.slingvt.jdbc.RoundTrips", false, RoundTripCount.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        return new RoundTripCount(context);
    }

    /** The round trips so far, or {@code null} while no counter is registered. */
    @Override
    public Long get() {
        RoundTrips counter = tracker.getService();
        return counter == null ? null : counter.total();
    }

    @Override
    public void close() {
        tracker.close();
    }
}
