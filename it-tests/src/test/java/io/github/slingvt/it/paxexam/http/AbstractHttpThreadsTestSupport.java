package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.composite;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

import javax.inject.Inject;

import jakarta.servlet.Servlet;

import org.junit.After;
import org.junit.Before;
import org.ops4j.pax.exam.CoreOptions;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.it.paxexam.AbstractPaxExamTestSupport;

/**
 * Felix HTTP Jetty 12 plus the http-virtual-threadpool bundle as built by this reactor, a probe servlet, and
 * hooks for the configuration a subclass runs with.
 */
public abstract class AbstractHttpThreadsTestSupport extends AbstractPaxExamTestSupport {

    static final String PID = "io.github.slingvt.http.VirtualThreads";
    static final String PROBE = "/vt-probe";

    @Inject
    protected ConfigurationAdmin configurationAdmin;

    protected final ProbeServlet probe = new ProbeServlet();
    private ServiceRegistration<Servlet> registration;

    /** An HTTP client whose own work runs on virtual threads, so it adds no platform threads per request. */
    protected final HttpClient client = HttpClient.newBuilder()
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Override
    protected Option[] additionalOptions() {
        return new Option[] {
            CoreOptions.bundle(builtBundle("slingvt.bundle.config")),
            CoreOptions.bundle(builtBundle("slingvt.bundle.http"))
        };
    }

    /** The URL of a bundle of this reactor that failsafe names in a system property. */
    private static String builtBundle(String property) {
        String path = System.getProperty(property);
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException("System property " + property + " must name the built bundle, got " + path);
        }
        return new File(path).toURI().toString();
    }

    /** The configuration of {@value #PID} this test class starts with; empty means the component defaults. */
    protected Map<String, Object> initialConfiguration() {
        return Map.of();
    }

    @Before
    public void setUp() throws Exception {
        Dictionary<String, Object> props = new Hashtable<>();
        props.put("osgi.http.whiteboard.servlet.pattern", PROBE);
        registration = bundleContext.registerService(Servlet.class, probe, props);
        configure(initialConfiguration());
        waitForHttpOk(PROBE);
    }

    @After
    public void tearDown() {
        if (registration != null) {
            registration.unregister();
        }
    }

    /** Replaces the configuration and waits until the component reports the new mode. */
    protected void configure(Map<String, Object> properties) throws Exception {
        Configuration config = configurationAdmin.getConfiguration(PID, null);
        Dictionary<String, Object> dict = new Hashtable<>(properties);
        config.update(dict);
        Object mode = properties.getOrDefault("mode", "virtual");
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!mode.equals(threads().mode().label())) {
            assertTrue("mode " + mode + " not applied within 20 s", System.nanoTime() < deadline);
            Thread.sleep(20);
        }
    }

    /**
     * The HTTP bundle's own view ({@link HttpThreads}, its exported API): the tests read the bundle, not the
     * observability bundle's JMX view of it, which they do not provision.
     */
    protected HttpThreadsSnapshot threads() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        ServiceReference<HttpThreads> reference;
        while ((reference = bundleContext.getServiceReference(HttpThreads.class)) == null) {
            assertTrue("service " + HttpThreads.class.getName() + " not registered within 20 s",
                    System.nanoTime() < deadline);
            Thread.sleep(20);
        }
        HttpThreads service = bundleContext.getService(reference);
        try {
            return service.snapshot();
        } finally {
            bundleContext.ungetService(reference);
        }
    }

    protected CompletableFuture<HttpResponse<String>> send(String query) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + PROBE + "?" + query))
                .timeout(Duration.ofSeconds(120)).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    protected static void assertProbe(HttpResponse<String> response, boolean virtual) {
        assertEquals(response.body(), 200, response.statusCode());
        assertTrue(response.body(), response.body().contains("virtual=" + virtual));
    }
}
