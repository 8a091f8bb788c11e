package io.github.slingvt.demo.internal;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** JSON answers shared by the servlets. */
final class Responses {

    private static final Logger LOG = LoggerFactory.getLogger(Responses.class);

    /** Seeding or a restart is the usual reason for a 503; a few seconds is a sensible first retry. */
    static final String RETRY_AFTER_SECONDS = "5";

    private Responses() {
    }

    static void json(HttpServletResponse response, int status, Map<String, Object> body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(Json.write(body));
        response.getWriter().flush();
    }

    static void badRequest(HttpServletResponse response, InvalidParameterException e) throws IOException {
        json(response, HttpServletResponse.SC_BAD_REQUEST, e.toJson());
    }

    static void unavailable(HttpServletResponse response, WorkException e) throws IOException {
        response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
        json(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, e.toJson());
    }

    /** 503 for a failed step, or only a log entry when the answer (a work.bin body) is already on its way. */
    static void fail(HttpServletResponse response, WorkException e) throws IOException {
        if (response.isCommitted()) {
            LOG.warn("Work step {} failed after the answer was sent: {}", e.step(), e.getMessage());
        } else {
            LOG.debug("Work step {} failed: {}", e.step(), e.getMessage());
            response.reset();
            unavailable(response, e);
        }
    }
}
