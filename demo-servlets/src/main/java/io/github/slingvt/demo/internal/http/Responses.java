package io.github.slingvt.demo.internal.http;

import io.github.slingvt.demo.internal.steps.WorkException;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** JSON answers shared by the servlets. */
public final class Responses {

    private static final Logger LOG = LoggerFactory.getLogger(Responses.class);

    /** Seeding or a restart is the usual reason for a 503; a few seconds is a sensible first retry. */
    static final String RETRY_AFTER_SECONDS = "5";

    private Responses() {
    }

    public static void json(HttpServletResponse response, int status, Map<String, Object> body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(Json.write(body));
        response.getWriter().flush();
    }

    public static void badRequest(HttpServletResponse response, InvalidParameterException e) throws IOException {
        json(response, HttpServletResponse.SC_BAD_REQUEST, e.toJson());
    }

    public static void unavailable(HttpServletResponse response, WorkException e) throws IOException {
        response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
        json(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, e.toJson());
    }

    /** 503 for a failed step, or only a log entry when the answer (a work.bin body) is already on its way. */
    public static void fail(HttpServletResponse response, WorkException e) throws IOException {
        if (response.isCommitted()) {
            LOG.warn("Work step {} failed after the answer was sent: {}", e.step(), e.getMessage());
        } else {
            LOG.debug("Work step {} failed: {}", e.step(), e.getMessage());
            response.reset();
            unavailable(response, e);
        }
    }

    /** Whether Sling authenticated the request as a user (anonymous and unauthenticated requests are not). */
    public static boolean isLoggedIn(HttpServletRequest request) {
        String user = request.getRemoteUser();
        return user != null && !user.isBlank() && !"anonymous".equals(user);
    }

    /**
     * State-changing demo requests need a logged-in user: an anonymous request, which any web page can make the
     * browser send, gets 403. A POST that another site's page makes the browser send with the developer's stored
     * login (CSRF) is refused before it gets here, by Sling's Referrer filter ({@code org.apache.sling.security}, in
     * every feature of this project). Answers whether the request may go on.
     */
    public static boolean requireUser(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!isLoggedIn(request)) {
            json(response, HttpServletResponse.SC_FORBIDDEN, Json.object("error", request.getMethod() + " "
                    + request.getRequestURI() + " changes state and needs a logged-in user; log in (for example basic "
                    + "authentication as admin) and send it again"));
            return false;
        }
        return true;
    }

    /** 405 for a GET that would change state, naming the method to use. */
    public static void postOnly(HttpServletResponse response, String what) throws IOException {
        response.setHeader("Allow", "POST");
        json(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, Json.object("error", what
                + " changes state, and GET never does: send it with POST as a logged-in user"));
    }
}
