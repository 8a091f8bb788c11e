package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.http.InvalidParameterException;
import io.github.slingvt.demo.internal.http.Json;
import io.github.slingvt.demo.internal.http.ParameterValidator;
import io.github.slingvt.demo.internal.http.Responses;
import io.github.slingvt.demo.internal.steps.LocalSteps;
import io.github.slingvt.demo.internal.steps.WorkException;
import io.github.slingvt.demo.internal.steps.WorkReport;
import io.github.slingvt.demo.internal.steps.WorkRequest;

import java.io.IOException;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.SlingJakartaHttpServletResponse;
import org.apache.sling.api.servlets.SlingJakartaSafeMethodsServlet;

/** GET /bin/vt/slow.json?delay=ms: the slow downstream endpoint that the fanout step calls. */
public final class SlowServlet extends SlingJakartaSafeMethodsServlet {

    private static final long serialVersionUID = 1L;

    static final String PATH = "/bin/vt/slow";

    private final transient AnonymousLimits anonymous;

    SlowServlet(AnonymousLimits anonymous) {
        this.anonymous = anonymous;
    }

    @Override
    protected void doGet(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        long delay;
        try {
            delay = ParameterValidator.parse(request::getParameter, "delay", WorkRequest.MAX_DELAY);
        } catch (InvalidParameterException e) {
            Responses.badRequest(response, e);
            return;
        }
        if (!AnonymousLimits.allow(request, response, anonymous.exceededDelay(delay))) {
            return;
        }
        long start = System.nanoTime();
        try {
            LocalSteps.idle(delay, "delay");
        } catch (WorkException e) {
            Responses.fail(response, e);
            return;
        }
        Responses.json(response, SlingJakartaHttpServletResponse.SC_OK, Json.object(
                "delay", delay,
                "ms", Json.millis(System.nanoTime() - start),
                "thread", WorkReport.currentThread()));
    }
}
