package io.github.slingvt.observability.internal.console;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.databind.JsonNode;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.http.api.HttpModeSwitch;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.api.ConsoleSection;
import io.github.slingvt.observability.internal.metrics.LiveMetrics;
import io.github.slingvt.observability.internal.metrics.MetricsConfig;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.observability.internal.status.StatusJson;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPools;
import io.github.slingvt.threads.api.ThreadPoolsModeSwitch;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Felix web console page "Virtual Threads" ({@code /system/console/slingvt}): the HTTP threading counters, the
 * virtual-thread scheduler figures, the Sling thread pools, other bundles' {@link ConsoleSection}s and the pinned
 * stacks, with switches for both thread kinds. Requests:
 * <ul>
 * <li>{@code GET <page>/series.json}: the live chart's points (see {@code LiveSeries});</li>
 * <li>{@code POST mode=virtual|kernel} switches the HTTP request threads and answers the status as JSON (what
 * {@code ./sling-vt mode} uses), 200 once in force, 202 if not within 10 s;</li>
 * <li>{@code POST poolsMode=virtual|kernel} switches the default mode of the Sling thread pools and answers 202
 * (Configuration Admin applies it asynchronously in the other bundle); 503 while that bundle is not active;</li>
 * <li>a bad value answers 400 naming the parameter and the allowed values; {@code redirect=true} (the page's
 * forms) answers with a redirect to the page instead of JSON.</li>
 * </ul>
 * The console's login protects all of it. The page stays while http-virtual-threadpool is stopped or being
 * replaced (it says so, and a switch of the HTTP mode answers 503), so the operator keeps the pools' switch and the
 * pinned stacks; a stopped bundle does not take an operator's page away.
 */
@Component(service = Servlet.class, property = {
    "felix.webconsole.label=slingvt",
    "felix.webconsole.title=Virtual Threads",
    "felix.webconsole.category=Sling"
})
public final class ConsolePlugin extends HttpServlet {

    static final String POOLS_MODE = "poolsMode";
    private static final long serialVersionUID = 1L;

    static final String HTTP_MISSING = "the HTTP request threads are not available: the bundle"
            + " http-virtual-threadpool is not active";

    private final transient PinnedThreads pinning;
    private final transient ConfigGuard guard;
    private final transient SchedulerStats scheduler = SchedulerStats.platform();

    /** Both Sling VT bundles may come and go without this page restarting: dynamic, hence fields. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient HttpThreads threads;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient HttpModeSwitch modeSwitch;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient ThreadPools pools;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient ThreadPoolsModeSwitch poolsSwitch;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient LiveMetrics metrics;

    /**
     * DS keeps this list in ranking order and replaces it as sections come and go; it sets it (empty if need be)
     * before the page is activated, so no initial value.
     */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile transient List<ConsoleSection> sections;

    @Activate
    public ConsolePlugin(@Reference PinnedThreads pinning, @Reference ConfigGuard guard) {
        this.pinning = pinning;
        this.guard = guard;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getPathInfo() != null && request.getPathInfo().endsWith(LiveChart.SERIES_SUFFIX)) {
            LiveMetrics live = metrics;
            writeJson(response, HttpServletResponse.SC_OK, live != null ? live.series() : StatusJson.error(
                    "the live metrics are not active (component " + MetricsConfig.PID + ")"));
            return;
        }
        HttpThreads http = threads;
        if (request.getPathInfo() != null && request.getPathInfo().endsWith(".json")) {
            writeStatus(response, http, HttpServletResponse.SC_OK);
            return;
        }
        response.setContentType("text/html;charset=utf-8");
        String consoleRoot = request.getContextPath() + request.getServletPath();
        ConsolePage.render(response.getWriter(), new ConsolePage.View(consoleRoot + "/slingvt", consoleRoot,
                http != null ? http.snapshot() : null, pinning, scheduler.read(), pools, List.copyOf(sections),
                guard.problems()));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String crossSite = SameOrigin.refusal(request);
        if (crossSite != null) {
            writeJson(response, HttpServletResponse.SC_FORBIDDEN, StatusJson.error(crossSite));
            return;
        }
        String poolsMode = request.getParameter(POOLS_MODE);
        if (poolsMode != null) {
            switchPools(request, response, poolsMode);
            return;
        }
        ThreadingMode mode;
        try {
            mode = ThreadingMode.parse(request.getParameter("mode"));
        } catch (IllegalArgumentException e) {
            writeJson(response, HttpServletResponse.SC_BAD_REQUEST, StatusJson.error(e.getMessage()));
            return;
        }
        HttpModeSwitch target = modeSwitch;
        HttpThreads http = threads;
        if (target == null || http == null) {
            writeJson(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, StatusJson.error(HTTP_MISSING));
            return;
        }
        boolean applied;
        try {
            applied = target.switchTo(mode, Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "interrupted");
            return;
        }
        if (!redirected(request, response)) {
            writeStatus(response, http, applied ? HttpServletResponse.SC_OK : HttpServletResponse.SC_ACCEPTED);
        }
    }

    private void switchPools(HttpServletRequest request, HttpServletResponse response, String value)
            throws IOException {
        ThreadPoolMode mode;
        try {
            mode = ThreadPoolMode.parse(value, POOLS_MODE);
        } catch (IllegalArgumentException e) {
            writeJson(response, HttpServletResponse.SC_BAD_REQUEST, StatusJson.error(POOLS_MODE + "='" + value
                    + "' is not supported; set " + POOLS_MODE + " to 'virtual' or 'kernel'"));
            return;
        }
        ThreadPoolsModeSwitch target = poolsSwitch;
        if (target == null) {
            writeJson(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, StatusJson.error(
                    "the Sling thread pools cannot be switched: the bundle commons-threads-virtual is not active"));
            return;
        }
        target.switchDefaultMode(mode);
        if (!redirected(request, response)) {
            writeJson(response, HttpServletResponse.SC_ACCEPTED, StatusJson.poolsSwitched(mode));
        }
    }

    /** The status JSON ./sling-vt reads; 503 with the reason while the HTTP bundle is not active. */
    private void writeStatus(HttpServletResponse response, HttpThreads http, int status) throws IOException {
        if (http == null) {
            writeJson(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, StatusJson.error(HTTP_MISSING));
            return;
        }
        writeJson(response, status, StatusJson.http(http.snapshot(), pinning.count(), scheduler.read()));
    }

    private static boolean redirected(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"true".equals(request.getParameter("redirect"))) {
            return false;
        }
        response.sendRedirect(request.getContextPath() + request.getServletPath() + "/slingvt");
        return true;
    }

    private static void writeJson(HttpServletResponse response, int status, JsonNode json) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json;charset=utf-8");
        response.getWriter().print(json);
    }
}
