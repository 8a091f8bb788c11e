package io.github.slingvt.observability.internal.pinning;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.PrintWriter;
import java.util.List;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.threads.api.ThreadPools;

/** Renders the pinning statistics for the status printer, the console page and JMX (one place, one wording). */
public final class PinningText {

    private PinningText() {
    }

    /** "3 times, longest 41 ms, reason ...: frame <- frame ..." on one line, for JMX. */
    public static String describe(PinningStats.StackCount stack) {
        return headline(stack) + ": " + String.join(" <- ", stack.frames());
    }

    /**
     * What moves the pinning thread to platform threads, from its name: a Sling pool's virtual threads are named
     * {@code sling-<pool>-vt-N} by commons-threads-virtual, HTTP request threads {@code slingvt-http-N}.
     */
    public static String remedy(PinningStats.StackCount stack) {
        String thread = stack.thread();
        int vt = thread.lastIndexOf("-vt-");
        // Oak renames the pool thread that runs its async indexing (seen pinning on JDK 21 in the pool 'oak').
        String pool = thread.startsWith("async-index-update") ? "oak"
                : thread.startsWith("sling-") && vt > "sling-".length() ? thread.substring("sling-".length(), vt) : null;
        if (pool != null) {
            return "thread " + thread + " of Sling pool '" + pool + "': to run that pool on platform threads, add "
                    + "poolModes=" + pool + "=kernel to " + ThreadPools.CONFIGURATION_PID;
        }
        if (thread.startsWith("slingvt-http-")) {
            return "HTTP request thread " + thread + ": remove the blocking call from the monitor in this stack, or set "
                    + "mode=kernel in " + HttpThreads.CONFIGURATION_PID;
        }
        return thread.isEmpty() ? "" : "thread " + thread;
    }

    public static String headline(PinningStats.StackCount stack) {
        return stack.count() + (stack.count() == 1 ? " time" : " times") + ", longest "
                + stack.maxDurationNanos() / 1_000_000 + " ms" + (stack.reason().isEmpty() ? "" : ", " + stack.reason());
    }

    /** Plain text for the inventory printer (status dumps). */
    public static void printText(PrintWriter out, PinnedThreads pinning) {
        out.printf("Pinned virtual threads: %d (detector: %s)%n", pinning.count(), pinning.detectorState());
        List<PinningStats.StackCount> top = pinning.topStacks();
        for (int i = 0; i < top.size(); i++) {
            out.printf("Pinned stack #%d: %s%n", i + 1, headline(top.get(i)));
            out.printf("    %s%n", remedy(top.get(i)));
            top.get(i).frames().forEach(f -> out.printf("    at %s%n", f));
        }
    }

    /** An HTML table for the console page; frame text contains {@code <init>} and the like, so it is escaped. */
    public static void printHtml(PrintWriter out, PinnedThreads pinning) {
        out.println("<div class='ui-widget-header ui-corner-top'>Pinned virtual threads</div>");
        out.println("<table class='nicetable'>");
        out.println("<tr><td>Pinned events</td><td>" + pinning.count() + "</td></tr>");
        out.println("<tr><td>Detector</td><td>" + escapeHtml4(pinning.detectorState()) + "</td></tr>");
        for (PinningStats.StackCount stack : pinning.topStacks()) {
            out.println("<tr><td>" + escapeHtml4(headline(stack)) + "<br/>" + escapeHtml4(remedy(stack)) + "</td><td><pre>"
                    + escapeHtml4(String.join("\n", stack.frames())) + "</pre></td></tr>");
        }
        out.println("</table>");
    }
}
