package io.github.slingvt.threads.internal;

import java.io.PrintWriter;
import java.util.List;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The thread pools in the Felix web console status page and status dumps; its JSON form
 * ({@code /system/console/status-slingvt-threadpools.json}) is what {@code ./sling-vt status} reads. The HTML form
 * is what the console page "Virtual Threads" of http-virtual-threadpool embeds: that bundle finds this printer by
 * its name, so the two bundles share no code.
 */
@Component(service = InventoryPrinter.class, property = {
    InventoryPrinter.NAME + "=slingvt-threadpools",
    InventoryPrinter.TITLE + "=Sling VT - Thread pools",
    InventoryPrinter.FORMAT + "=TEXT",
    InventoryPrinter.FORMAT + "=HTML",
    InventoryPrinter.FORMAT + "=JSON"
})
public final class ThreadPoolsStatusPrinter implements InventoryPrinter {

    private final VirtualThreadPoolManager manager;

    @Activate
    public ThreadPoolsStatusPrinter(@Reference VirtualThreadPoolManager manager) {
        this.manager = manager;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        List<PoolStatus> statuses = manager.statuses();
        if (format == Format.JSON) {
            out.print(PoolStatus.toJson(statuses));
        } else if (format == Format.HTML) {
            printHtml(out, statuses);
        } else {
            printText(out, statuses);
        }
    }

    private void printText(PrintWriter out, List<PoolStatus> statuses) {
        out.printf("Settings (%s): %s%n", VirtualThreadPoolsConfig.PID, manager.settings());
        out.printf("%nPools in use: %d%n", statuses.size());
        for (PoolStatus s : statuses) {
            out.printf("%s%n  mode: %s, maxPoolSize: %s, running: %d, queued: %d, completed: %d, rejected: %d%s%n",
                    s.name(), s.mode().label(), maxPoolSize(s.maxPoolSize()),
                    s.running(), s.queued(), s.completed(), s.rejected(),
                    s.draining() > 0 ? ", draining after a switch: " + s.draining() + " executor(s)" : "");
        }
        List<PoolDefinition> definitions = manager.definitions();
        out.printf("%nConfigured pools (%s): %d%n", ThreadPoolFactoryConfig.FACTORY_PID, definitions.size());
        for (PoolDefinition d : definitions) {
            out.printf("  %s (%s): maxPoolSize %d, queueSize %d, blockPolicy %s%n", d.name(), d.pid(),
                    d.config().getMaxPoolSize(), d.config().getQueueSize(), d.config().getBlockPolicy());
        }
    }

    /**
     * Tables in the web console's own style (jQuery UI classes, {@code nicetable}). Pool names and labels are
     * free text (an anonymous pool's label comes from its creator), so every dynamic value is escaped.
     */
    private void printHtml(PrintWriter out, List<PoolStatus> statuses) {
        out.println("<p>Settings (" + escape(VirtualThreadPoolsConfig.PID) + "): <code>"
                + escape(manager.settings().toString()) + "</code></p>");
        out.println("<table class='nicetable slingvt-threadpools'><thead><tr>"
                + "<th>Pool</th><th>Mode</th><th>Max pool size</th><th>Running</th><th>Queued</th>"
                + "<th>Completed</th><th>Rejected</th></tr></thead><tbody>");
        if (statuses.isEmpty()) {
            out.println("<tr><td colspan='7'>No pool in use yet.</td></tr>");
        }
        for (PoolStatus s : statuses) {
            out.println("<tr><td>" + escape(s.name()) + "</td><td>" + s.mode().label()
                    + (s.draining() > 0 ? " (draining after a switch: " + s.draining() + ")" : "")
                    + "</td><td>" + maxPoolSize(s.maxPoolSize()) + "</td><td>" + s.running() + "</td><td>"
                    + s.queued() + "</td><td>" + s.completed() + "</td><td>" + s.rejected() + "</td></tr>");
        }
        out.println("</tbody></table>");
        List<PoolDefinition> definitions = manager.definitions();
        out.println("<p>Configured pools (" + escape(ThreadPoolFactoryConfig.FACTORY_PID) + "): "
                + definitions.size() + "</p>");
        if (!definitions.isEmpty()) {
            out.println("<table class='nicetable'><thead><tr><th>Name</th><th>PID</th><th>Max pool size</th>"
                    + "<th>Queue size</th><th>Block policy</th></tr></thead><tbody>");
            for (PoolDefinition d : definitions) {
                out.println("<tr><td>" + escape(d.name()) + "</td><td>" + escape(d.pid()) + "</td><td>"
                        + d.config().getMaxPoolSize() + "</td><td>" + d.config().getQueueSize() + "</td><td>"
                        + escape(String.valueOf(d.config().getBlockPolicy())) + "</td></tr>");
            }
            out.println("</tbody></table>");
        }
    }

    private static String maxPoolSize(int value) {
        return value == Integer.MAX_VALUE ? "unlimited" : Integer.toString(value);
    }

    static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
