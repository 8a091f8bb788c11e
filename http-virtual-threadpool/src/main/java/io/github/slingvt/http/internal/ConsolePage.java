package io.github.slingvt.http.internal;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import io.github.slingvt.config.ConfigProblem;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;

/**
 * The HTML of the console page "Virtual Threads", in the web console's own style (jQuery UI headers,
 * {@code nicetable}). Every dynamic text is escaped: pool labels, stack frames and error messages are free text.
 */
final class ConsolePage {

    /**
     * The console's style sheet gives blocks no margin, and the sections need some air. A div, not a p: a form
     * inside a p closes the p, which then spaces nothing.
     */
    private static final String SPACED = "<div style='margin:6px 0 16px'>";

    private ConsolePage() {
    }

    /**
     * A status printer of another Sling VT bundle as the console plugin found it by name (commons-threads-virtual's
     * {@code slingvt-threadpools}, demo-servlets' {@code slingvt-repository}), and whether it offers HTML (older
     * versions print TEXT only).
     */
    record StatusPrinter(InventoryPrinter printer, boolean html) {
    }

    /**
     * @param action the URL the forms post to (the page itself)
     * @param consoleRoot the web console's root ({@code /system/console}), for the link to the configuration
     * @param pools the thread-pools printer, or {@code null} when commons-threads-virtual is not active
     * @param repository the repository printer (store, Oak cluster, JDBC pool), or {@code null} when absent
     * @param problems the refused configuration values of all Sling VT bundles
     */
    static void render(PrintWriter out, String action, String consoleRoot, ThreadingState state,
            SchedulerStats.Figures scheduler, StatusPrinter pools, StatusPrinter repository,
            List<ConfigProblem> problems) {
        RequestCounters.Snapshot s = state.snapshot();
        ThreadingSettings settings = state.settings();
        if (!problems.isEmpty()) {
            configProblems(out, consoleRoot, problems);
        }
        header(out, "HTTP request threads");
        out.println("<table class='nicetable' id='slingvt-http'>");
        row(out, "Mode", s.mode());
        row(out, "Max concurrent requests",
                settings.bounded() ? String.valueOf(settings.maxConcurrentRequests()) : "unbounded");
        row(out, "In flight (peak)", s.inFlight() + " (" + s.peakInFlight() + ")");
        row(out, "Queued", String.valueOf(s.queued()));
        row(out, "Admitted / rejected / completed", s.admitted() + " / " + s.rejected() + " / " + s.completed());
        row(out, "Virtual threads started", String.valueOf(s.virtualThreadsStarted()));
        row(out, "Kernel max threads", String.valueOf(settings.kernelMaxThreads()));
        row(out, "Pinned virtual threads", String.valueOf(s.pinnedEvents()));
        out.println("</table>");
        out.println(SPACED);
        for (ThreadingMode mode : ThreadingMode.values()) {
            button(out, action, "mode", mode.label(), "Switch HTTP requests to " + mode.label(),
                    mode.label().equals(s.mode()));
        }
        out.println("</div>");

        header(out, "Virtual-thread scheduler (jdk.management VirtualThreadSchedulerMXBean)");
        out.println("<table class='nicetable' id='slingvt-scheduler'>");
        if (scheduler.available()) {
            row(out, "Parallelism", String.valueOf(scheduler.parallelism()));
            row(out, "Pool size (carrier threads)", String.valueOf(scheduler.poolSize()));
            row(out, "Mounted virtual threads", String.valueOf(scheduler.mountedVirtualThreadCount()));
            row(out, "Queued virtual threads", String.valueOf(scheduler.queuedVirtualThreadCount()));
        } else {
            row(out, "Scheduler", PinningText.escape(scheduler.unavailableReason()));
        }
        out.println("</table>");
        out.println(SPACED + "</div>");

        header(out, "Sling thread pools");
        out.println("<div id='slingvt-threadpools'>");
        if (pools == null) {
            out.println("<p>Not available: the bundle commons-threads-virtual (status printer slingvt-threadpools) "
                    + "is not active.</p>");
        } else {
            out.println(html(pools, "thread-pools"));
        }
        out.println("</div>" + SPACED);
        for (String mode : new String[] {"virtual", "kernel"}) {
            button(out, action, PoolsModeSwitcher.PARAMETER, mode, "Switch all Sling thread pools to " + mode, false);
        }
        out.println("<a href='" + PinningText.escape(consoleRoot + PoolsModeSwitcher.CONFIG_MANAGER_PATH)
                + "'>Per-pool modes (configuration " + PoolsModeSwitcher.PID + ")</a></div>");

        // Where unbounded request threads meet a bounded JDBC pool: its waiting threads say the requests in
        // flight outnumber the connections (README, "Scale-out on PostgreSQL", sizes maxConcurrentRequests by it).
        header(out, "Repository and JDBC pool");
        out.println("<div id='slingvt-repository-section'>");
        out.println(repository == null
                ? "<p>Not available: the status printer slingvt-repository (bundle demo-servlets) is not active.</p>"
                : html(repository, "repository"));
        out.println("</div>" + SPACED + "</div>");

        PinningText.printHtml(out, state.pinning());
    }

    /** First on the page: the instance is not running with the settings the operator asked for. */
    private static void configProblems(PrintWriter out, String consoleRoot, List<ConfigProblem> problems) {
        header(out, "Refused configurations: the previous settings (or the defaults) stay in force");
        out.println("<table class='nicetable' id='slingvt-config-errors'>");
        out.println("<tr><th>Configuration</th><th>Property</th><th>Value</th><th>Allowed</th></tr>");
        for (ConfigProblem p : problems) {
            String link = "<a href='" + PinningText.escape(consoleRoot + "/configMgr/" + p.pid()) + "'>"
                    + PinningText.escape(p.pid()) + "</a>";
            out.println("<tr><td>" + link + "</td><td>" + PinningText.escape(p.property()) + "</td><td>"
                    + PinningText.escape(p.value()) + "</td><td>" + PinningText.escape(p.allowed()) + "</td></tr>");
        }
        out.println("</table>");
        out.println(SPACED + "</div>");
    }

    /** A throwing printer must not take the whole page down; its failure is shown in its place. */
    private static String html(StatusPrinter status, String what) {
        StringWriter buffer = new StringWriter();
        try (PrintWriter writer = new PrintWriter(buffer)) {
            status.printer().print(writer, status.html() ? Format.HTML : Format.TEXT, false);
        } catch (RuntimeException e) {
            return "<p>The " + what + " status printer failed: " + PinningText.escape(String.valueOf(e)) + "</p>";
        }
        return status.html() ? buffer.toString() : "<pre>" + PinningText.escape(buffer.toString()) + "</pre>";
    }

    private static void header(PrintWriter out, String title) {
        out.println("<div class='ui-widget-header ui-corner-top'>" + PinningText.escape(title) + "</div>");
    }

    private static void button(PrintWriter out, String action, String parameter, String value, String label,
            boolean disabled) {
        out.println("<form method='post' action='" + PinningText.escape(action) + "' style='display:inline'>"
                + "<input type='hidden' name='" + parameter + "' value='" + value + "'/>"
                + "<input type='hidden' name='redirect' value='true'/>"
                + "<button type='submit'" + (disabled ? " disabled" : "") + ">" + PinningText.escape(label)
                + "</button></form>");
    }

    private static void row(PrintWriter out, String name, String value) {
        out.println("<tr><td>" + name + "</td><td>" + value + "</td></tr>");
    }
}
