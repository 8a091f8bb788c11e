package io.github.slingvt.demo.internal.jobs;

import io.github.slingvt.demo.internal.http.Json;
import io.github.slingvt.demo.internal.http.Responses;

import java.io.IOException;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.SlingJakartaHttpServletResponse;
import org.apache.sling.api.servlets.SlingJakartaAllMethodsServlet;

/**
 * POST /bin/vt/jobs.json, as a logged-in user: runs a one-shot Sling Scheduler job and a Sling Event job and answers
 * the thread each ran on ({@code {"scheduler":{"thread":..,"virtual":..},"event":{..}}}); 504 if one of them did not
 * run in time. Adding jobs changes state, so GET answers 405.
 */
public final class JobsProbeServlet extends SlingJakartaAllMethodsServlet {

    private static final long serialVersionUID = 1L;

    static final String PATH = "/bin/vt/jobs";

    private final transient JobThreadsProbe probe;

    JobsProbeServlet(JobThreadsProbe probe) {
        this.probe = probe;
    }

    @Override
    protected void doGet(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        Responses.postOnly(response, "Running the job probe (it adds a Sling job)");
    }

    @Override
    protected void doPost(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        if (!Responses.requireUser(request, response)) {
            return;
        }
        JobThreadsProbe.Result result;
        try {
            result = probe.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Responses.json(response, SlingJakartaHttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    Json.object("error", "interrupted"));
            return;
        }
        Responses.json(response, result.complete() ? SlingJakartaHttpServletResponse.SC_OK
                : SlingJakartaHttpServletResponse.SC_GATEWAY_TIMEOUT, result.body());
    }
}
