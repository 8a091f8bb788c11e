package io.github.slingvt.observability.internal.metrics;

/**
 * The names in the {@code slingvt} registry, Sling's dotted style. docs/OPERATING.md has the table of what each means
 * and its Prometheus name; the Prometheus endpoint turns the kind and pool parts of a name into labels.
 */
public final class MetricNames {

    /** The registry's service property {@code name}. */
    public static final String REGISTRY = "slingvt";

    /** Timers, one per thread kind: arrival at the HTTP handler to the end of the request, the wait included. */
    public static final String REQUESTS = "slingvt.http.requests.";
    public static final String REQUESTS_VIRTUAL = REQUESTS + "virtual";
    public static final String REQUESTS_PLATFORM = REQUESTS + "platform";

    public static final String ADMITTED = "slingvt.http.admitted";
    public static final String REJECTED = "slingvt.http.rejected";
    public static final String COMPLETED = "slingvt.http.completed";
    public static final String ABANDONED = "slingvt.http.abandoned";

    public static final String IN_FLIGHT = "slingvt.http.inFlight";
    public static final String QUEUED = "slingvt.http.queued";
    public static final String CONCURRENCY_LIMIT = "slingvt.http.concurrencyLimit";
    /** 1 while the admission queue serves its newest waiting requests first (in overload), 0 in arrival order. */
    public static final String NEWEST_FIRST = "slingvt.http.newestFirst";
    public static final String VIRTUAL_MODE = "slingvt.http.virtualMode";

    public static final String CARRIERS_PARALLELISM = "slingvt.carriers.parallelism";
    public static final String CARRIERS_POOL_SIZE = "slingvt.carriers.poolSize";
    public static final String CARRIERS_MOUNTED = "slingvt.carriers.mounted";
    public static final String CARRIERS_QUEUED = "slingvt.carriers.queued";

    /** Timer: one sample per pinned event, its duration. */
    public static final String PINNED = "slingvt.pinned";

    /** Gauges per Sling pool: {@code slingvt.pools.<pool>.<figure>}. */
    public static final String POOLS = "slingvt.pools.";
    static final String[] POOL_FIGURES = {"active", "queued", "completed", "virtual"};

    private MetricNames() {
    }

    /** A pool's name as one dot-free segment, so that the name splits unambiguously into pool and figure. */
    static String poolSegment(String poolName) {
        return poolName.replace('.', '_');
    }
}
