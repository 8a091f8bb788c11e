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

    /** The fixed cap as configured; 0 when unbounded or adaptive. */
    int getMaxConcurrentRequests();

    /** Whether the cap is adaptive (maxConcurrentRequests=auto). */
    boolean isAdaptive();

    /** The cap in force now: the fixed cap, the adaptive limit's current value, or 0 when unbounded. */
    int getConcurrencyLimit();

    int getKernelMaxThreads();

    /** How many configurations were refused as invalid since start (the previous settings stayed in force). */
    long getRefusedConfigurations();

    /** Why the last refused configuration was refused; empty if none was. */
    String getLastConfigurationError();
}
