package io.github.slingvt.observability.internal.prometheus;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServletResponse;

import com.codahale.metrics.MetricRegistry;

import io.github.slingvt.config.ConfigGuard;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import io.prometheus.client.hotspot.BufferPoolsExports;
import io.prometheus.client.hotspot.ClassLoadingExports;
import io.prometheus.client.hotspot.GarbageCollectorExports;
import io.prometheus.client.hotspot.MemoryPoolsExports;
import io.prometheus.client.hotspot.StandardExports;
import io.prometheus.client.hotspot.ThreadExports;
import io.prometheus.client.hotspot.VersionInfoExports;
import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.SlingJakartaHttpServletResponse;
import org.apache.sling.api.servlets.SlingJakartaSafeMethodsServlet;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * {@code GET /system/slingvt/metrics}: the Prometheus scrape of the instance. A Sling servlet, so Sling's
 * authentication applies (a scraper logs in like any Sling user) and it runs through the HTTP bundle's admission like
 * any request. The collectors live in a registry of this servlet, not in the client's global default registry, which
 * another bundle embedding the client could share.
 */
@Component(service = Servlet.class, configurationPid = PrometheusConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL, property = {
            "sling.servlet.paths=" + PrometheusServlet.PATH,
            "sling.servlet.methods=GET",
            "sling.servlet.methods=HEAD",
            "service.description=Sling VT Prometheus endpoint"
        })
@Designate(ocd = PrometheusConfig.class)
public final class PrometheusServlet extends SlingJakartaSafeMethodsServlet {

    public static final String PATH = "/system/slingvt/metrics";
    private static final long serialVersionUID = 1L;
    private static final String ANONYMOUS = "anonymous";

    private final boolean anonymousAccess;
    private final transient RegistriesCollector registries = new RegistriesCollector();
    private final transient CollectorRegistry collectors = new CollectorRegistry(true);

    @Activate
    public PrometheusServlet(@Reference ConfigGuard guard, Map<String, Object> properties) {
        Settings settings = guard.read(PrometheusConfig.PID, properties,
                r -> new Settings(r.bool("anonymousAccess", false), r.bool("jvmMetrics", true)));
        this.anonymousAccess = settings.anonymousAccess();
        collectors.register(registries);
        if (settings.jvmMetrics()) {
            // DefaultExports minus the allocation counter, whose GC listeners could not be removed when this bundle
            // stops.
            for (Collector c : List.of(new StandardExports(), new MemoryPoolsExports(), new BufferPoolsExports(),
                    new GarbageCollectorExports(), new ThreadExports(), new ClassLoadingExports(),
                    new VersionInfoExports())) {
                collectors.register(c);
            }
        }
    }

    @Reference(service = MetricRegistry.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeRegistry")
    void addRegistry(MetricRegistry registry, Map<String, Object> properties) {
        Object name = properties.get("name");
        registries.add(registry, name == null ? "unnamed" : name.toString());
    }

    void removeRegistry(MetricRegistry registry) {
        registries.remove(registry);
    }

    @Override
    protected void doGet(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        String user = request.getResourceResolver().getUserID();
        if (!anonymousAccess && (user == null || ANONYMOUS.equals(user))) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"Sling VT metrics\"");
            response.setContentType("text/plain;charset=utf-8");
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.getWriter().println("401: log in to read the metrics (anonymous access is off in configuration "
                    + PrometheusConfig.PID + ", attribute anonymousAccess)");
            return;
        }
        String contentType = TextFormat.chooseContentType(request.getHeader("Accept"));
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-store");
        Writer out = response.getWriter();
        TextFormat.writeFormat(contentType, out, collectors.metricFamilySamples());
        out.flush();
    }

    private record Settings(boolean anonymousAccess, boolean jvmMetrics) {
    }
}
