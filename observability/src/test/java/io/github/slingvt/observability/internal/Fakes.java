package io.github.slingvt.observability.internal;

import java.util.List;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.threads.api.ConfiguredPool;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;

/** Stand-ins for the services of the HTTP and thread-pool bundles, as this bundle sees them through their APIs. */
public final class Fakes {

    private Fakes() {
    }

    /** An idle instance in virtual mode with the defaults: unbounded, kernel pool of 200, nothing refused. */
    public static HttpThreadsSnapshot idle() {
        return new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 200, 0, 0, 0, 0, 0, 0, 0, 0, "");
    }

    /** {@link HttpThreads} whose snapshot a test sets. */
    public static final class Http implements HttpThreads {

        public volatile HttpThreadsSnapshot now = idle();

        @Override
        public HttpThreadsSnapshot snapshot() {
            return now;
        }
    }

    /** {@link ThreadPools} with fixed content. */
    public record Pools(String settings, List<ThreadPoolSnapshot> pools, List<ConfiguredPool> configuredPools)
            implements ThreadPools {
    }
}
