package io.github.slingvt.observability.internal.status;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.PrintWriter;
import java.util.List;

import io.github.slingvt.threads.api.ConfiguredPool;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The Sling thread pools of commons-threads-virtual in the Felix web console status page and status dumps; its
 * JSON form ({@code /system/console/status-slingvt-threadpools.json}) is what {@code ./sling-vt status} reads, its
 * HTML form what the console page "Virtual Threads" shows. Registered only while that bundle offers
 * {@link ThreadPools}.
 */
@Component(service = InventoryPrinter.class, property = {
    InventoryPrinter.NAME + "=slingvt-threadpools",
    InventoryPrinter.TITLE + "=Sling VT - Thread pools",
    InventoryPrinter.FORMAT + "=TEXT",
    InventoryPrinter.FORMAT + "=HTML",
    InventoryPrinter.FORMAT + "=JSON"
})
public final class ThreadPoolsStatusPrinter implements InventoryPrinter {

    private final ThreadPools pools;

    @Activate
    public ThreadPoolsStatusPrinter(@Reference ThreadPools pools) {
        this.pools = pools;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        List<ThreadPoolSnapshot> inUse = pools.pools();
        if (format == Format.JSON) {
            out.print(StatusJson.pools(inUse));
        } else if (format == Format.HTML) {
            printHtml(out, pools, inUse);
        } else {
            printText(out, inUse);
        }
    }

    private void printText(PrintWriter out, List<ThreadPoolSnapshot> inUse) {
        out.printf("Settings (%s): %s%n", ThreadPools.CONFIGURATION_PID, pools.settings());
        out.printf("%nPools in use: %d%n", inUse.size());
        for (ThreadPoolSnapshot s : inUse) {
            out.printf("%s%n  mode: %s, maxPoolSize: %s, running: %d, queued: %d, completed: %d, rejected: %d%s%n",
                    s.name(), s.mode().label(), maxPoolSize(s.maxPoolSize()),
                    s.running(), s.queued(), s.completed(), s.rejected(),
                    s.draining() > 0 ? ", draining after a switch: " + s.draining() + " executor(s)" : "");
        }
        List<ConfiguredPool> configured = pools.configuredPools();
        out.printf("%nConfigured pools (%s): %d%n", ThreadPools.FACTORY_PID, configured.size());
        for (ConfiguredPool d : configured) {
            out.printf("  %s (%s): maxPoolSize %d, queueSize %d, blockPolicy %s%n", d.name(), d.pid(),
                    d.maxPoolSize(), d.queueSize(), d.blockPolicy());
        }
    }

    /**
     * Tables in the web console's own style (jQuery UI classes, {@code nicetable}). Pool names and labels are
     * free text (an anonymous pool's label comes from its creator), so every dynamic value is escaped. Used by the
     * console page as well, which has the service at hand.
     */
    public static void printHtml(PrintWriter out, ThreadPools pools, List<ThreadPoolSnapshot> inUse) {
        out.println("<p>Settings (" + escapeHtml4(ThreadPools.CONFIGURATION_PID) + "): <code>"
                + escapeHtml4(pools.settings()) + "</code></p>");
        out.println("<table class=\"nicetable slingvt-threadpools\"><thead><tr>"
                + "<th>Pool</th><th>Mode</th><th>Max pool size</th><th>Running</th><th>Queued</th>"
                + "<th>Completed</th><th>Rejected</th></tr></thead><tbody>");
        if (inUse.isEmpty()) {
            out.println("<tr><td colspan=\"7\">No pool in use yet.</td></tr>");
        }
        for (ThreadPoolSnapshot s : inUse) {
            out.println("<tr><td>" + escapeHtml4(s.name()) + "</td><td>" + s.mode().label()
                    + (s.draining() > 0 ? " (draining after a switch: " + s.draining() + ")" : "")
                    + "</td><td>" + maxPoolSize(s.maxPoolSize()) + "</td><td>" + s.running() + "</td><td>"
                    + s.queued() + "</td><td>" + s.completed() + "</td><td>" + s.rejected() + "</td></tr>");
        }
        out.println("</tbody></table>");
        List<ConfiguredPool> configured = pools.configuredPools();
        out.println("<p>Configured pools (" + escapeHtml4(ThreadPools.FACTORY_PID) + "): " + configured.size()
                + "</p>");
        if (!configured.isEmpty()) {
            out.println("<table class=\"nicetable\"><thead><tr><th>Name</th><th>PID</th><th>Max pool size</th>"
                    + "<th>Queue size</th><th>Block policy</th></tr></thead><tbody>");
            for (ConfiguredPool d : configured) {
                out.println("<tr><td>" + escapeHtml4(d.name()) + "</td><td>" + escapeHtml4(d.pid()) + "</td><td>"
                        + d.maxPoolSize() + "</td><td>" + d.queueSize() + "</td><td>"
                        + escapeHtml4(d.blockPolicy()) + "</td></tr>");
            }
            out.println("</tbody></table>");
        }
    }

    private static String maxPoolSize(int value) {
        return value == Integer.MAX_VALUE ? "unlimited" : Integer.toString(value);
    }
}
