package io.github.slingvt.it.paxexam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;

import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;

/**
 * Baseline for the thread-pool ITs: Felix HTTP Jetty 12 with its default configuration serves a whiteboard
 * servlet on 127.0.0.1 from a platform thread (Felix's virtual-thread switch is off by default).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class HttpServiceIT extends AbstractPaxExamTestSupport {

    static final String PROBE_PATH = "/vt-probe";
    static final String MARKER = "slingvt-vt-probe";

    private ServiceRegistration<Servlet> probeRegistration;

    @Before
    public void registerProbeServlet() {
        final Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("osgi.http.whiteboard.servlet.pattern", PROBE_PATH);
        properties.put("osgi.http.whiteboard.servlet.name", MARKER);
        probeRegistration = bundleContext.registerService(Servlet.class, new VtProbeServlet(), properties);
    }

    @After
    public void unregisterProbeServlet() {
        if (probeRegistration != null) {
            probeRegistration.unregister();
            probeRegistration = null;
        }
    }

    @Test
    public void probeServletRunsOnPlatformThreadByDefault() throws Exception {
        final HttpResult result = waitForHttpOk(PROBE_PATH);
        System.out.println("GET " + baseUrl() + PROBE_PATH + " -> " + result.status() + " " + result.body().strip());

        assertEquals(HttpURLConnection.HTTP_OK, result.status());
        assertNotNull("Content-Type", result.contentType());
        assertTrue("Content-Type: " + result.contentType(), result.contentType().startsWith("text/plain"));

        final Map<String, String> probe = parse(result.body());
        assertEquals("body: " + result.body(), MARKER, probe.get("marker"));
        assertEquals("body: " + result.body(), "false", probe.get("virtual"));
        final String thread = probe.get("thread");
        assertNotNull("body: " + result.body(), thread);
        assertFalse("thread name is empty", thread.isBlank());
    }

    @Test
    public void unregisteredPathAnswers404() throws Exception {
        waitForHttpOk(PROBE_PATH);
        final HttpResult result = httpGet(PROBE_PATH + "-missing");
        assertEquals("body: " + result.body(), HttpURLConnection.HTTP_NOT_FOUND, result.status());
    }

    @Test
    public void servletRuntimeAdvertisesLoopbackEndpoint() throws Exception {
        waitForHttpOk(PROBE_PATH);
        final ServiceReference<?>[] runtimes =
            bundleContext.getServiceReferences("org.osgi.service.servlet.runtime.HttpServiceRuntime", null);
        assertNotNull("no jakarta HttpServiceRuntime service", runtimes);
        assertEquals(1, runtimes.length);
        final List<String> endpoints = asStrings(runtimes[0].getProperty("osgi.http.endpoint"));
        assertTrue("endpoints: " + endpoints, endpoints.contains("http://" + HTTP_HOST + ":" + httpPort() + "/"));
    }

    private static Map<String, String> parse(String body) {
        final Map<String, String> values = new HashMap<>();
        for (String line : body.split("\n")) {
            final int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return values;
    }

    private static List<String> asStrings(Object value) {
        final List<String> strings = new ArrayList<>();
        if (value instanceof String[] array) {
            strings.addAll(List.of(array));
        } else if (value instanceof Collection<?> collection) {
            collection.forEach(v -> strings.add(String.valueOf(v)));
        } else if (value != null) {
            strings.add(String.valueOf(value));
        }
        return strings;
    }

    /** Answers with the marker and the thread that handles the request. */
    static final class VtProbeServlet extends HttpServlet {

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            final Thread current = Thread.currentThread();
            response.setContentType("text/plain");
            response.setCharacterEncoding("UTF-8");
            final PrintWriter writer = response.getWriter();
            writer.print("marker=" + MARKER + "\n");
            writer.print("virtual=" + current.isVirtual() + "\n");
            writer.print("thread=" + current.getName() + "\n");
        }
    }
}
