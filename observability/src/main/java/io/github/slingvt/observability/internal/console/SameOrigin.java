package io.github.slingvt.observability.internal.console;

import java.net.URI;
import java.net.URISyntaxException;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Refuses state-changing console requests that a browser sends on behalf of another site (CSRF): a web page the
 * admin visits could otherwise post a mode switch to 127.0.0.1 with the admin's stored login. Browsers send
 * {@code Origin} with every cross-site POST (and {@code Referer} unless told not to); it must name this server.
 * A request with neither header does not come from a browser page (curl, {@code ./sling-vt mode}) and passes.
 */
final class SameOrigin {

    private SameOrigin() {
    }

    /** Why the request is refused, or {@code null} when it comes from this server's own pages or from no page. */
    static String refusal(HttpServletRequest request) {
        String origin = request.getHeader("Origin");
        String source = origin != null ? origin : request.getHeader("Referer");
        if (source == null) {
            return null;
        }
        String header = origin != null ? "Origin" : "Referer";
        try {
            URI uri = new URI(source.trim());
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            if (request.getScheme().equalsIgnoreCase(uri.getScheme())
                    && request.getServerName().equalsIgnoreCase(uri.getHost()) && request.getServerPort() == port) {
                return null;
            }
        } catch (URISyntaxException | NullPointerException e) {
            // "null" (a sandboxed page) or garbage: not this server.
        }
        return header + " '" + source + "' is not this server (" + request.getScheme() + "://"
                + request.getServerName() + ":" + request.getServerPort() + "): cross-site requests may not change "
                + "the threading mode; use the console page itself or ./sling-vt mode";
    }
}
