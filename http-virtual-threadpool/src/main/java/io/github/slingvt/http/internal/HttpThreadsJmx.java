package io.github.slingvt.http.internal;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Registers {@link HttpThreadsMBean} in the platform MBean server for as long as the component lives. */
final class HttpThreadsJmx implements HttpThreadsMBean {

    static final String OBJECT_NAME = "io.github.slingvt:type=HttpThreads";
    private static final Logger LOG = LoggerFactory.getLogger(HttpThreadsJmx.class);

    private final ThreadingState state;
    private ObjectName registered;

    HttpThreadsJmx(ThreadingState state) {
        this.state = state;
    }

    void register() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(OBJECT_NAME);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(new StandardMBean(this, HttpThreadsMBean.class), name);
            registered = name;
        } catch (JMException e) {
            LOG.warn("HTTP thread counters are not available over JMX: {}", e.getMessage());
        }
    }

    void unregister() {
        if (registered != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
            } catch (JMException e) {
                LOG.debug("MBean {} already gone", registered, e);
            }
            registered = null;
        }
    }

    @Override
    public String getMode() {
        return state.settings().mode().label();
    }

    @Override
    public long getInFlight() {
        return state.snapshot().inFlight();
    }

    @Override
    public long getPeakInFlight() {
        return state.snapshot().peakInFlight();
    }

    @Override
    public long getAdmitted() {
        return state.snapshot().admitted();
    }

    @Override
    public long getRejected() {
        return state.snapshot().rejected();
    }

    @Override
    public long getCompleted() {
        return state.snapshot().completed();
    }

    @Override
    public long getVirtualThreadsStarted() {
        return state.snapshot().virtualThreadsStarted();
    }

    @Override
    public int getQueued() {
        return state.gate().queued();
    }

    @Override
    public long getPinnedEvents() {
        return state.pinning().count();
    }

    @Override
    public String[] getTopPinnedStacks() {
        return state.pinning().topStacks().stream().map(PinningText::describe).toArray(String[]::new);
    }

    @Override
    public int getMaxConcurrentRequests() {
        return state.settings().maxConcurrentRequests();
    }

    @Override
    public int getKernelMaxThreads() {
        return state.settings().kernelMaxThreads();
    }

    @Override
    public long getRefusedConfigurations() {
        return state.refusedConfigurations();
    }

    @Override
    public String getLastConfigurationError() {
        return state.lastConfigurationError();
    }
}
