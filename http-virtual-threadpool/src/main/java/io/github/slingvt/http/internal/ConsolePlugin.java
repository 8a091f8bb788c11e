package io.github.slingvt.http.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.slingvt.config.ConfigGuard;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Felix web console page "Virtual Threads" ({@code /system/console/slingvt}): the HTTP threading counters, the
 * virtual-thread scheduler figures, the Sling thread pools and the pinned stacks, with switches for both. Requests:
 * <ul>
 * <li>{@code POST mode=virtual|kernel} switches the HTTP request threads and answers the status as JSON (what
 * {@code ./sling-vt mode} uses), 200 once in force, 202 if not within 10 s;</li>
 * <li>{@code POST poolsMode=virtual|kernel} sets {@code defaultMode} of the Sling thread pools' configuration and
 * answers 202 (Configuration Admin applies it asynchronously in the other bundle);</li>
 * <li>a bad value answers 400 naming the parameter and the allowed values; {@code redirect=true} (the page's
 * forms) answers with a redirect to the page instead of JSON.</li>
 * </ul>
 * The console's login protects all of it.
 */
@Component(service = Servlet.class, property = {
    "felix.webconsole.label=slingvt",
    "felix.webconsole.title=Virtual Threads",
    "felix.webconsole.category=Sling"
})
public final class ConsolePlugin extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final String POOLS_PRINTER = "slingvt-threadpools";
    private static final String REPOSITORY_PRINTER = "slingvt-repository";

    private final transient VirtualThreadsConnectorFactory factory;
    private final transient ConfigGuard guard;
    private final transient ModeSwitcher switcher;
    private final transient PoolsModeSwitcher poolsSwitcher;
    private final transient SchedulerStats scheduler = SchedulerStats.platform();
    /**
     * commons-threads-virtual is optional and may come and go without this page restarting: hence a dynamic
     * reference (bind/unbind, which a constructor cannot take), found by printer name so no code is shared.
     */
    private final transient AtomicReference<ConsolePage.StatusPrinter> poolsPrinter = new AtomicReference<>();
    /** demo-servlets' repository status (store, Oak cluster, JDBC pool): optional and dynamic for the same reason. */
    private final transient AtomicReference<ConsolePage.StatusPrinter> repositoryPrinter = new AtomicReference<>();

    @Activate
    public ConsolePlugin(@Reference VirtualThreadsConnectorFactory factory,
            @Reference ConfigurationAdmin configurationAdmin, @Reference ConfigGuard guard) {
        this.factory = factory;
        this.guard = guard;
        this.switcher = new ModeSwitcher(configurationAdmin, factory.state());
        this.poolsSwitcher = new PoolsModeSwitcher(configurationAdmin);
    }

    @Reference(service = InventoryPrinter.class, cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            target = "(" + InventoryPrinter.NAME + "=" + POOLS_PRINTER + ")")
    void bindPoolsPrinter(InventoryPrinter printer, Map<String, Object> properties) {
        poolsPrinter.set(new ConsolePage.StatusPrinter(printer, offersHtml(properties.get(InventoryPrinter.FORMAT))));
    }

    /** A greedy replacement binds the new printer before unbinding the old one: clear only if it is still ours. */
    void unbindPoolsPrinter(InventoryPrinter printer) {
        unbind(poolsPrinter, printer);
    }

    @Reference(service = InventoryPrinter.class, cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY,
            target = "(" + InventoryPrinter.NAME + "=" + REPOSITORY_PRINTER + ")")
    void bindRepositoryPrinter(InventoryPrinter printer, Map<String, Object> properties) {
        repositoryPrinter.set(
                new ConsolePage.StatusPrinter(printer, offersHtml(properties.get(InventoryPrinter.FORMAT))));
    }

    void unbindRepositoryPrinter(InventoryPrinter printer) {
        unbind(repositoryPrinter, printer);
    }

    private static void unbind(AtomicReference<ConsolePage.StatusPrinter> bound, InventoryPrinter printer) {
        bound.getAndUpdate(current -> current != null && current.printer() == printer ? null : current);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getPathInfo() != null && request.getPathInfo().endsWith(".json")) {
            writeJson(response, HttpServletResponse.SC_OK);
            return;
        }
        response.setContentType("text/html;charset=utf-8");
        String consoleRoot = request.getContextPath() + request.getServletPath();
        ConsolePage.render(response.getWriter(), consoleRoot + "/slingvt", consoleRoot, factory.state(),
                scheduler.read(), poolsPrinter.get(), repositoryPrinter.get(), guard.problems());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String crossSite = SameOrigin.refusal(request);
        if (crossSite != null) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            response.setContentType("application/json;charset=utf-8");
            response.getWriter().print("{\"error\":" + JsonText.quote(crossSite) + "}");
            return;
        }
        String poolsMode = request.getParameter(PoolsModeSwitcher.PARAMETER);
        if (poolsMode != null) {
            switchPools(request, response, poolsMode);
            return;
        }
        ThreadingMode mode;
        try {
            mode = ThreadingMode.parse(request.getParameter("mode"));
        } catch (IllegalArgumentException e) {
            badRequest(response, e.getMessage());
            return;
        }
        boolean applied;
        try {
            applied = switcher.switchTo(mode, Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "interrupted");
            return;
        }
        if (redirected(request, response)) {
            return;
        }
        writeJson(response, applied ? HttpServletResponse.SC_OK : HttpServletResponse.SC_ACCEPTED);
    }

    private void switchPools(HttpServletRequest request, HttpServletResponse response, String value)
            throws IOException {
        String mode;
        try {
            mode = PoolsModeSwitcher.parse(value);
        } catch (IllegalArgumentException e) {
            badRequest(response, e.getMessage());
            return;
        }
        poolsSwitcher.switchTo(mode);
        if (redirected(request, response)) {
            return;
        }
        response.setStatus(HttpServletResponse.SC_ACCEPTED);
        response.setContentType("application/json;charset=utf-8");
        response.getWriter().print("{\"" + PoolsModeSwitcher.PROPERTY + "\":" + JsonText.quote(mode) + ",\"pid\":"
                + JsonText.quote(PoolsModeSwitcher.PID) + "}");
    }

    private static boolean redirected(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"true".equals(request.getParameter("redirect"))) {
            return false;
        }
        response.sendRedirect(request.getContextPath() + request.getServletPath() + "/slingvt");
        return true;
    }

    private static void badRequest(HttpServletResponse response, String message) throws IOException {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("application/json;charset=utf-8");
        response.getWriter().print("{\"error\":" + JsonText.quote(message) + "}");
    }

    private void writeJson(HttpServletResponse response, int status) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json;charset=utf-8");
        response.getWriter().print(factory.state().snapshot().toJson("scheduler", scheduler.read().toJson()));
    }

    /** The format property may be a String, an array or a collection, as for any service property. */
    static boolean offersHtml(Object formats) {
        Collection<?> values;
        if (formats instanceof Object[] array) {
            values = Arrays.asList(array);
        } else if (formats instanceof Collection<?> collection) {
            values = collection;
        } else {
            values = formats == null ? List.of() : List.of(formats);
        }
        return values.stream().anyMatch(v -> "HTML".equalsIgnoreCase(String.valueOf(v).trim()));
    }
}
