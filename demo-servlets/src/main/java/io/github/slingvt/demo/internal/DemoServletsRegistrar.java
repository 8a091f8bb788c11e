package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.content.ContentSeeder;
import io.github.slingvt.demo.internal.content.DemoContent;
import io.github.slingvt.demo.internal.steps.Fanout;
import io.github.slingvt.demo.internal.steps.RepositorySteps;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.Servlet;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.jdbc.RoundTrips;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.serviceusermapping.ServiceUserMapped;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the demo servlets, or none of them when the configuration switches them off. One component owns them
 * all, so that they share one HTTP client and one CPU pool, and go away together.
 */
@Component(service = {}, immediate = true, configurationPid = DemoServletsConfig.PID)
@Designate(ocd = DemoServletsConfig.class)
public final class DemoServletsRegistrar {

    private static final Logger LOG = LoggerFactory.getLogger(DemoServletsRegistrar.class);

    static final String SLING_CONTEXT_SELECT = "(osgi.http.whiteboard.context.name=org.apache.sling)";

    private final List<ServiceRegistration<Servlet>> registrations = new ArrayList<>();
    private final Fanout fanout;
    private final ExecutorService cpuPool;

    @Activate
    public DemoServletsRegistrar(BundleContext bundleContext,
            @Reference ResourceResolverFactory resolverFactory,
            @Reference ContentSeeder seeder,
            @Reference(target = "(" + ServiceUserMapped.SUBSERVICENAME + "=" + DemoContent.SUBSERVICE_WRITER + ")")
                    ServiceUserMapped writerUser,
            @Reference RoundTrips roundTrips,
            @Reference ConfigGuard guard, Map<String, Object> properties) {
        Settings settings = settings(guard, properties);
        if (!settings.enabled()) {
            this.fanout = null;
            this.cpuPool = null;
            LOG.info("Demo servlets are disabled ({} enabled=false)", DemoServletsConfig.PID);
            return;
        }
        this.fanout = new Fanout();
        this.cpuPool = cpuPool();
        AnonymousLimits anonymous = settings.anonymous();
        WorkSteps steps = new WorkSteps(new RepositorySteps(resolverFactory), fanout, roundTrips);
        register(bundleContext, new WorkServlet(steps, anonymous), slingServlet(WorkServlet.PATH, WITH_POST, "json", "bin"));
        register(bundleContext, new SlowServlet(anonymous), slingServlet(SlowServlet.PATH, "json"));
        register(bundleContext, new StatusServlet(seeder), slingServlet(StatusServlet.PATH, "json"));
        register(bundleContext, new AsyncWorkServlet(steps, cpuPool, anonymous), whiteboardServlet(AsyncWorkServlet.PATH));
        LOG.info("Demo servlets registered: {}.json|.bin, {}, {}.json, {}.json - a demo, not for production exposure",
                WorkServlet.PATH, AsyncWorkServlet.PATH, SlowServlet.PATH, StatusServlet.PATH);
    }

    @Deactivate
    public void deactivate() {
        for (ServiceRegistration<Servlet> registration : registrations) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                // already gone with the bundle
            }
        }
        registrations.clear();
        if (fanout != null) {
            fanout.close();
            cpuPool.shutdownNow();
        }
    }

    int registrationCount() {
        return registrations.size();
    }

    /**
     * Async code hands CPU work to a small pool instead of blocking a request thread; sized to the CPUs, as such
     * code usually is. Platform threads, so that the async variant does not quietly run on virtual threads.
     */
    private static ExecutorService cpuPool() {
        AtomicInteger count = new AtomicInteger();
        int size = Math.max(2, Runtime.getRuntime().availableProcessors());
        return Executors.newFixedThreadPool(size, task -> Thread.ofPlatform()
                .name("vt-demo-async-cpu-" + count.incrementAndGet()).daemon(true).unstarted(task));
    }

    private void register(BundleContext bundleContext, Servlet servlet, Dictionary<String, Object> properties) {
        registrations.add(bundleContext.registerService(Servlet.class, servlet, properties));
    }

    /** What {@link DemoServletsConfig} configures. */
    public record Settings(boolean enabled, AnonymousLimits anonymous) {
    }

    /**
     * {@link DemoServletsConfig}, read from the raw properties through the guard: DS would fail the
     * activation on a value of the wrong type, silently leaving the servlets away.
     */
    public static Settings settings(ConfigGuard guard, Map<String, Object> properties) {
        // Every component of this PID reads all of it, so that none of them clears what another one refused.
        return guard.read(DemoServletsConfig.PID, properties,
                r -> new Settings(r.bool("enabled", true), AnonymousLimits.read(r)));
    }

    /** Methods of the servlets whose POST changes state (scratch writes, the job probe). */
    public static final String[] WITH_POST = {"GET", "HEAD", "POST"};
    private static final String[] READ_ONLY = {"GET", "HEAD"};

    /** Strict: only the listed extensions and GET/HEAD reach the servlet; anything else is 404 or 405. */
    public static Dictionary<String, Object> slingServlet(String path, String... extensions) {
        return slingServlet(path, READ_ONLY, extensions);
    }

    /** Strict: only the listed extensions and methods reach the servlet. */
    public static Dictionary<String, Object> slingServlet(String path, String[] methods, String... extensions) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("sling.servlet.paths", path);
        properties.put("sling.servlet.paths.strict", true);
        properties.put("sling.servlet.extensions", extensions);
        properties.put("sling.servlet.methods", methods);
        properties.put("service.description", "Sling VT demo servlet " + path + " (not for production exposure)");
        return properties;
    }

    static Dictionary<String, Object> whiteboardServlet(String pattern) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("osgi.http.whiteboard.servlet.pattern", pattern);
        properties.put("osgi.http.whiteboard.context.select", SLING_CONTEXT_SELECT);
        properties.put("osgi.http.whiteboard.servlet.asyncSupported", true);
        properties.put("osgi.http.whiteboard.servlet.name", "Sling VT demo " + pattern);
        properties.put("service.description", "Sling VT demo servlet " + pattern + " (not for production exposure)");
        return properties;
    }
}
