package io.github.slingvt.http.internal;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;

import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Felix web console page "Virtual Threads" ({@code /system/console/slingvt}): shows the HTTP threading
 * counters and switches the mode. {@code POST mode=virtual|kernel} answers the status as JSON, which is what
 * {@code ./sling-vt mode} uses; the console's login protects it.
 */
@Component(service = Servlet.class, property = {
    "felix.webconsole.label=slingvt",
    "felix.webconsole.title=Virtual Threads",
    "felix.webconsole.category=Sling"
})
public final class ConsolePlugin extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient VirtualThreadsConnectorFactory factory;
    private final transient ModeSwitcher switcher;

    @Activate
    public ConsolePlugin(@Reference VirtualThreadsConnectorFactory factory,
            @Reference ConfigurationAdmin configurationAdmin) {
        this.factory = factory;
        this.switcher = new ModeSwitcher(configurationAdmin, factory.state());
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getPathInfo() != null && request.getPathInfo().endsWith(".json")) {
            writeJson(response, HttpServletResponse.SC_OK);
            return;
        }
        response.setContentType("text/html;charset=utf-8");
        RequestCounters.Snapshot s = factory.state().snapshot();
        ThreadingSettings settings = factory.state().settings();
        PrintWriter out = response.getWriter();
        out.println("<div class='ui-widget-header ui-corner-top'>HTTP request threads</div>");
        out.println("<table class='nicetable'>");
        row(out, "Mode", s.mode());
        row(out, "Max concurrent requests", settings.bounded() ? String.valueOf(settings.maxConcurrentRequests()) : "unbounded");
        row(out, "In flight (peak)", s.inFlight() + " (" + s.peakInFlight() + ")");
        row(out, "Queued", String.valueOf(s.queued()));
        row(out, "Admitted / rejected / completed", s.admitted() + " / " + s.rejected() + " / " + s.completed());
        row(out, "Virtual threads started", String.valueOf(s.virtualThreadsStarted()));
        row(out, "Kernel max threads", String.valueOf(settings.kernelMaxThreads()));
        row(out, "Pinned virtual threads", String.valueOf(s.pinnedEvents()));
        out.println("</table>");
        String action = request.getContextPath() + request.getServletPath() + "/slingvt";
        for (ThreadingMode mode : ThreadingMode.values()) {
            out.println("<form method='post' action='" + action + "' style='display:inline'>"
                    + "<input type='hidden' name='mode' value='" + mode.label() + "'/>"
                    + "<input type='hidden' name='redirect' value='true'/>"
                    + "<button type='submit'" + (mode.label().equals(s.mode()) ? " disabled" : "") + ">Switch to "
                    + mode.label() + "</button></form>");
        }
        PinningText.printHtml(out, factory.state().pinning());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ThreadingMode mode;
        try {
            mode = ThreadingMode.parse(request.getParameter("mode"));
        } catch (IllegalArgumentException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.setContentType("application/json;charset=utf-8");
            response.getWriter().print("{\"error\":\"" + e.getMessage().replace("\"", "'") + "\"}");
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
        if ("true".equals(request.getParameter("redirect"))) {
            response.sendRedirect(request.getContextPath() + request.getServletPath() + "/slingvt");
            return;
        }
        writeJson(response, applied ? HttpServletResponse.SC_OK : HttpServletResponse.SC_ACCEPTED);
    }

    private void writeJson(HttpServletResponse response, int status) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json;charset=utf-8");
        response.getWriter().print(factory.state().snapshot().toJson());
    }

    private static void row(PrintWriter out, String name, String value) {
        out.println("<tr><td>" + name + "</td><td>" + value + "</td></tr>");
    }
}
