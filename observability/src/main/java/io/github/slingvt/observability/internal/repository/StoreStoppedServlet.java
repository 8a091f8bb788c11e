package io.github.slingvt.observability.internal.repository;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Dictionary;
import java.util.Hashtable;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The answer to every request that no servlet takes while Oak's document store is stopped: {@code 503} with
 * {@code Retry-After}, instead of the {@code 404} the HTTP service gives once Sling's main servlet has gone with the
 * repository; a client or cache must not take content that exists for missing. Registered on the whiteboard's default
 * context at {@code /} by {@link DocumentStoreCheck} only while the store is stopped: Sling's own context (ranked
 * above the default one) keeps every request while its servlets are there, and the web console and health checks keep
 * theirs.
 */
final class StoreStoppedServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** Seconds: a restart of the instance takes about this long. */
    static final int RETRY_AFTER_SECONDS = 30;

    private final String reason;

    StoreStoppedServlet(String reason) {
        this.reason = reason;
    }

    /** The whiteboard properties: every path of the default context, a name the HTTP service's runtime shows. */
    static Dictionary<String, Object> properties() {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("osgi.http.whiteboard.servlet.pattern", "/");
        properties.put("osgi.http.whiteboard.servlet.name", "Sling VT: repository unavailable");
        properties.put("osgi.http.whiteboard.context.select", "(osgi.http.whiteboard.context.name=default)");
        return properties;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("text/plain");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().println("503 Service Unavailable: the repository is not available on this node. " + reason);
    }
}
