package io.github.slingvt.observability.internal.status;

/** JMX view of the HTTP request threading: {@code io.github.slingvt:type=HttpThreads}. */
public interface HttpThreadsMBean {

    String getMode();

    long getInFlight();

    long getPeakInFlight();

    long getAdmitted();

    long getRejected();

    /** Requests dropped while they waited for admission because their client closed the connection. */
    long getAbandoned();

    long getCompleted();

    long getVirtualThreadsStarted();

    int getQueued();

    /** Virtual threads pinned to their carrier at least the detector's threshold, since start (JFR jdk.VirtualThreadPinned). */
    long getPinnedEvents();

    /** The most frequent pinned stacks, one entry each: count, longest pin and the frames, top first. */
    String[] getTopPinnedStacks();

    /**
     * The cap of virtual mode: the fixed cap as configured, under {@code auto} the adaptive limit in force now (the
     * same as {@link #getConcurrencyLimit()}), 0 when unbounded. {@link #getMaxConcurrentRequestsSetting()} says
     * which of these it is.
     */
    int getMaxConcurrentRequests();

    /** maxConcurrentRequests as an operator writes it: a number, {@code auto}, or {@code unbounded}. */
    String getMaxConcurrentRequestsSetting();

    /** Whether the cap is adaptive (maxConcurrentRequests=auto). */
    boolean isAdaptive();

    /** The cap in force now: the fixed cap, the adaptive limit's current value, or 0 when unbounded. */
    int getConcurrencyLimit();

    /**
     * Whether the admission queue serves its newest waiting requests first now: it does while it is in overload (its
     * oldest waited over 100 ms for a whole interval while the requests held grew), first in, first out otherwise.
     */
    boolean isNewestFirst();

    int getKernelMaxThreads();

    /** How many configurations were refused as invalid since start (the previous settings stayed in force). */
    long getRefusedConfigurations();

    /** Why the last refused configuration was refused; empty if none was. */
    String getLastConfigurationError();
}
