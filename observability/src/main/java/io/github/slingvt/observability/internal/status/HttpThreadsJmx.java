package io.github.slingvt.observability.internal.status;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.pinning.PinningText;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers {@link HttpThreadsMBean} in the platform MBean server for as long as the HTTP bundle offers
 * {@link HttpThreads}. Registered with JMX only, not as an OSGi service.
 */
@Component(service = {}, immediate = true)
public final class HttpThreadsJmx implements HttpThreadsMBean {

    static final String OBJECT_NAME = "io.github.slingvt:type=HttpThreads";
    private static final Logger LOG = LoggerFactory.getLogger(HttpThreadsJmx.class);

    private final HttpThreads threads;
    private final PinnedThreads pinning;
    private ObjectName registered;

    @Activate
    public HttpThreadsJmx(@Reference HttpThreads threads, @Reference PinnedThreads pinning) {
        this.threads = threads;
        this.pinning = pinning;
        register();
    }

    private void register() {
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

    @Deactivate
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
        return threads.snapshot().mode().label();
    }

    @Override
    public long getInFlight() {
        return now().inFlight();
    }

    @Override
    public long getPeakInFlight() {
        return now().peakInFlight();
    }

    @Override
    public long getAdmitted() {
        return now().admitted();
    }

    @Override
    public long getRejected() {
        return now().rejected();
    }

    @Override
    public long getAbandoned() {
        return now().abandoned();
    }

    @Override
    public long getCompleted() {
        return now().completed();
    }

    @Override
    public long getVirtualThreadsStarted() {
        return now().virtualThreadsStarted();
    }

    @Override
    public int getQueued() {
        return now().queued();
    }

    @Override
    public long getPinnedEvents() {
        return pinning.count();
    }

    @Override
    public String[] getTopPinnedStacks() {
        return pinning.topStacks().stream().map(PinningText::describe).toArray(String[]::new);
    }

    @Override
    public int getMaxConcurrentRequests() {
        HttpThreadsSnapshot now = now();
        return now.adaptive() ? now.concurrencyLimit() : now.maxConcurrentRequests();
    }

    @Override
    public String getMaxConcurrentRequestsSetting() {
        HttpThreadsSnapshot now = now();
        return now.bounded() ? now.capLabel() : "unbounded";
    }

    @Override
    public boolean isAdaptive() {
        return now().adaptive();
    }

    @Override
    public int getConcurrencyLimit() {
        return now().concurrencyLimit();
    }

    @Override
    public boolean isNewestFirst() {
        return now().newestFirst();
    }

    @Override
    public int getKernelMaxThreads() {
        return now().kernelMaxThreads();
    }

    @Override
    public long getRefusedConfigurations() {
        return now().refusedConfigurations();
    }

    @Override
    public String getLastConfigurationError() {
        return now().lastConfigurationError();
    }

    private HttpThreadsSnapshot now() {
        return threads.snapshot();
    }
}
