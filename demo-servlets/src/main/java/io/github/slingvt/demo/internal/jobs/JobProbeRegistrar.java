package io.github.slingvt.demo.internal.jobs;

import io.github.slingvt.demo.internal.DemoServletsConfig;
import io.github.slingvt.demo.internal.DemoServletsRegistrar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;

import jakarta.servlet.Servlet;

import io.github.slingvt.config.ConfigGuard;
import org.apache.sling.commons.scheduler.Scheduler;
import org.apache.sling.event.jobs.JobManager;
import org.apache.sling.event.jobs.consumer.JobConsumer;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the job threads probe ({@value JobsProbeServlet#PATH}.json) and its Sling Event job consumer, unless the
 * demo servlets are switched off ({@link DemoServletsConfig#enabled()}). Scheduler jobs run in the scheduler's
 * default pool, Event jobs in Sling Event's job thread pool.
 */
@Component(service = {}, immediate = true, configurationPid = DemoServletsConfig.PID)
public final class JobProbeRegistrar {

    private static final Logger LOG = LoggerFactory.getLogger(JobProbeRegistrar.class);

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final List<ServiceRegistration<?>> registrations = new ArrayList<>();

    @Activate
    public JobProbeRegistrar(BundleContext bundleContext, @Reference Scheduler scheduler,
            @Reference JobManager jobManager, @Reference ConfigGuard guard, Map<String, Object> properties) {
        if (!DemoServletsRegistrar.settings(guard, properties).enabled()) {
            return;
        }
        JobThreadsProbe probe = new JobThreadsProbe(
                (id, task) -> scheduler.schedule(task, scheduler.NOW().name("slingvt-demo-jobprobe-" + id)),
                (id, task) -> jobManager.addJob(JobThreadsProbe.TOPIC, Map.of(JobThreadsProbe.ID_PROPERTY, id)) != null,
                TIMEOUT);
        registrations.add(bundleContext.registerService(Servlet.class, new JobsProbeServlet(probe),
                DemoServletsRegistrar.slingServlet(JobsProbeServlet.PATH, DemoServletsRegistrar.WITH_POST, "json")));
        Dictionary<String, Object> consumer = new Hashtable<>();
        consumer.put(JobConsumer.PROPERTY_TOPICS, JobThreadsProbe.TOPIC);
        registrations.add(bundleContext.registerService(JobConsumer.class, new ProbeJobConsumer(probe), consumer));
        LOG.info("Job threads probe registered: {}.json (topic {}) - a demo, not for production exposure",
                JobsProbeServlet.PATH, JobThreadsProbe.TOPIC);
    }

    @Deactivate
    public void deactivate() {
        for (ServiceRegistration<?> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // already gone with the bundle
            }
        }
        registrations.clear();
    }

    int registrationCount() {
        return registrations.size();
    }
}
