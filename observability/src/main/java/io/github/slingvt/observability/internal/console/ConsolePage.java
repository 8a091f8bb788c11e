package io.github.slingvt.observability.internal.console;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.api.ConsoleSection;
import io.github.slingvt.observability.internal.status.CapText;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.pinning.PinningText;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.observability.internal.status.ThreadPoolsStatusPrinter;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPools;

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
     * What one rendering shows.
     *
     * @param action the URL the forms post to (the page itself)
     * @param consoleRoot the web console's root ({@code /system/console}), for links to configurations
     * @param http the HTTP request threads now, or {@code null} when http-virtual-threadpool is not active
     * @param pools commons-threads-virtual's pools, or {@code null} when that bundle is not active
     * @param sections the other bundles' sections, in ranking order
     * @param problems the refused configuration values of all Sling VT bundles
     */
    record View(String action, String consoleRoot, HttpThreadsSnapshot http, PinnedThreads pinning,
            SchedulerStats.Figures scheduler, ThreadPools pools, List<ConsoleSection> sections,
            List<ConfigProblem> problems) {
    }

    static void render(PrintWriter out, View view) {
        HttpThreadsSnapshot s = view.http();
        if (!view.problems().isEmpty()) {
            configProblems(out, view.consoleRoot(), view.problems());
        }
        header(out, "HTTP request threads");
        if (s == null) {
            out.println("<p id='slingvt-http'>Not available: the bundle http-virtual-threadpool is not active.</p>");
            out.println(SPACED + "</div>");
        } else {
            http(out, view, s);
        }
        scheduler(out, view.scheduler());
        pools(out, view);
        for (ConsoleSection section : view.sections()) {
            header(out, section.title());
            out.println("<div class='slingvt-section'>" + html(section) + "</div>" + SPACED + "</div>");
        }
        PinningText.printHtml(out, view.pinning());
    }

    private static void http(PrintWriter out, View view, HttpThreadsSnapshot s) {
        out.println("<table class='nicetable' id='slingvt-http'>");
        row(out, "Mode", s.mode().label());
        row(out, "Max concurrent requests", CapText.of(s));
        row(out, "In flight (peak)", s.inFlight() + " (" + s.peakInFlight() + ")");
        row(out, "Queued", String.valueOf(s.queued()));
        row(out, "Admitted / rejected / completed", s.admitted() + " / " + s.rejected() + " / " + s.completed());
        row(out, "Virtual threads started", String.valueOf(s.virtualThreadsStarted()));
        row(out, "Kernel max threads", String.valueOf(s.kernelMaxThreads()));
        row(out, "Pinned virtual threads", String.valueOf(view.pinning().count()));
        out.println("</table>");
        out.println(SPACED);
        for (ThreadingMode mode : ThreadingMode.values()) {
            button(out, view.action(), "mode", mode.label(), "Switch HTTP requests to " + mode.label(),
                    mode == s.mode());
        }
        out.println("</div>");
        LiveChart.render(out, view.action());
    }

    private static void scheduler(PrintWriter out, SchedulerStats.Figures scheduler) {
        header(out, "Virtual-thread scheduler (jdk.management VirtualThreadSchedulerMXBean)");
        out.println("<table class='nicetable' id='slingvt-scheduler'>");
        if (scheduler.available()) {
            row(out, "Parallelism", String.valueOf(scheduler.parallelism()));
            row(out, "Pool size (carrier threads)", String.valueOf(scheduler.poolSize()));
            row(out, "Mounted virtual threads", String.valueOf(scheduler.mountedVirtualThreadCount()));
            row(out, "Queued virtual threads", String.valueOf(scheduler.queuedVirtualThreadCount()));
        } else {
            row(out, "Scheduler", escapeHtml4(scheduler.unavailableReason()));
        }
        out.println("</table>");
        out.println(SPACED + "</div>");
    }

    private static void pools(PrintWriter out, View view) {
        header(out, "Sling thread pools");
        out.println("<div id='slingvt-threadpools'>");
        if (view.pools() == null) {
            out.println("<p>Not available: the bundle commons-threads-virtual is not active.</p>");
            out.println("</div>");
            return;
        }
        StringWriter buffer = new StringWriter();
        try (PrintWriter writer = new PrintWriter(buffer)) {
            ThreadPoolsStatusPrinter.printHtml(writer, view.pools(), view.pools().pools());
            out.println(buffer);
        } catch (RuntimeException e) {
            // The pools bundle may be stopping while the page renders: say so in place of the table.
            out.println("<p>The thread pools could not be read: " + escapeHtml4(String.valueOf(e)) + "</p>");
        }
        out.println("</div>" + SPACED);
        for (ThreadPoolMode mode : ThreadPoolMode.values()) {
            button(out, view.action(), ConsolePlugin.POOLS_MODE, mode.label(),
                    "Switch all Sling thread pools to " + mode.label(), false);
        }
        out.println("<a href=\"" + escapeHtml4(view.consoleRoot() + "/configMgr/" + ThreadPools.CONFIGURATION_PID)
                + "\">Per-pool modes (configuration " + ThreadPools.CONFIGURATION_PID + ")</a></div>");
    }

    /** First on the page: the instance is not running with the settings the operator asked for. */
    private static void configProblems(PrintWriter out, String consoleRoot, List<ConfigProblem> problems) {
        header(out, "Refused configurations: the previous settings (or the defaults) stay in force");
        out.println("<table class='nicetable' id='slingvt-config-errors'>");
        out.println("<tr><th>Configuration</th><th>Property</th><th>Value</th><th>Allowed</th></tr>");
        for (ConfigProblem p : problems) {
            String link = "<a href=\"" + escapeHtml4(consoleRoot + "/configMgr/" + p.pid()) + "\">"
                    + escapeHtml4(p.pid()) + "</a>";
            out.println("<tr><td>" + link + "</td><td>" + escapeHtml4(p.property()) + "</td><td>"
                    + escapeHtml4(p.value()) + "</td><td>" + escapeHtml4(p.allowed()) + "</td></tr>");
        }
        out.println("</table>");
        out.println(SPACED + "</div>");
    }

    /** A throwing section must not take the whole page down; its failure is shown in its place. */
    private static String html(ConsoleSection section) {
        StringWriter buffer = new StringWriter();
        try (PrintWriter writer = new PrintWriter(buffer)) {
            section.printHtml(writer);
        } catch (RuntimeException e) {
            return "<p>This section failed: " + escapeHtml4(String.valueOf(e)) + "</p>";
        }
        return buffer.toString();
    }

    private static void header(PrintWriter out, String title) {
        out.println("<div class='ui-widget-header ui-corner-top'>" + escapeHtml4(title) + "</div>");
    }

    /** Attribute values in double quotes: escapeHtml4 escapes double quotes, not apostrophes. */
    private static void button(PrintWriter out, String action, String parameter, String value, String label,
            boolean disabled) {
        out.println("<form method=\"post\" action=\"" + escapeHtml4(action) + "\" style=\"display:inline\">"
                + "<input type=\"hidden\" name=\"" + parameter + "\" value=\"" + value + "\"/>"
                + "<input type=\"hidden\" name=\"redirect\" value=\"true\"/>"
                + "<button type=\"submit\"" + (disabled ? " disabled" : "") + ">" + escapeHtml4(label)
                + "</button></form>");
    }

    private static void row(PrintWriter out, String name, String value) {
        out.println("<tr><td>" + name + "</td><td>" + value + "</td></tr>");
    }
}
