package io.github.slingvt.observability.internal.console;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The live chart section of the console page: a container that {@code live-chart.js} (inlined, so the page needs
 * nothing but this bundle) fills from {@code <page>/series.json}.
 */
final class LiveChart {

    static final String SERIES_SUFFIX = "/series.json";
    private static final String SCRIPT = load("live-chart.js");

    private LiveChart() {
    }

    static void render(PrintWriter out, String pageUrl) {
        out.println("<div class='ui-widget-header ui-corner-top buttonGroup'>Live (last 5 minutes, one point per second)"
                + "</div>");
        out.println("<div id='slingvt-live-status' style='margin:4px 0'>loading...</div>");
        out.println("<div id='slingvt-live' data-updates='0' data-series='" + escapeHtml4(pageUrl + SERIES_SUFFIX)
                + "' style='display:flex;flex-wrap:wrap;gap:8px;margin-bottom:16px'></div>");
        out.println("<script>");
        out.println(SCRIPT);
        out.println("</script>");
    }

    private static String load(String name) {
        try (InputStream in = LiveChart.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the bundle");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
