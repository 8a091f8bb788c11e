package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.http.InvalidParameterException;
import io.github.slingvt.demo.internal.http.Responses;
import io.github.slingvt.demo.internal.steps.WorkException;
import io.github.slingvt.demo.internal.steps.WorkReport;
import io.github.slingvt.demo.internal.steps.WorkRequest;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.SlingJakartaHttpServletResponse;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.servlets.SlingJakartaAllMethodsServlet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/**
 * GET /bin/vt/work.json and /bin/vt/work.bin: the workload as plain blocking code, the way most Sling code is
 * written. On a virtual request thread every wait in here unmounts the thread instead of holding a carrier. Scratch
 * writes ({@code writes > 0}) change the repository, so they are POST only, for a logged-in user; GET with writes is
 * answered 405. Heavy work (beyond {@link AnonymousLimits}) needs a logged-in user too.
 */
public final class WorkServlet extends SlingJakartaAllMethodsServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(WorkServlet.class);

    static final String PATH = "/bin/vt/work";

    private final transient WorkSteps steps;
    private final transient AnonymousLimits anonymous;

    WorkServlet(WorkSteps steps, AnonymousLimits anonymous) {
        this.steps = steps;
        this.anonymous = anonymous;
    }

    @Override
    protected void doGet(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        WorkRequest work = parse(request, response);
        if (work == null) {
            return;
        }
        if (work.writes() > 0) {
            Responses.postOnly(response, "writes=" + work.writes());
            return;
        }
        if (AnonymousLimits.allow(request, response, anonymous.exceeded(work))) {
            serve(request, response, work);
        }
    }

    @Override
    protected void doPost(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        if (!Responses.requireUser(request, response)) {
            return;
        }
        WorkRequest work = parse(request, response);
        if (work != null) {
            serve(request, response, work);
        }
    }

    /** The parameters, or null after a 400 that names the bad one. */
    private static WorkRequest parse(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        try {
            return WorkRequest.parse(request::getParameter);
        } catch (InvalidParameterException e) {
            Responses.badRequest(response, e);
            return null;
        }
    }

    private void serve(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response,
            WorkRequest work) throws IOException {
        boolean binary = "bin".equals(request.getRequestPathInfo().getExtension());
        WorkReport report = new WorkReport("sync", work);
        ResourceResolver resolver = request.getResourceResolver();
        try {
            TreeShape shape = steps.checkContent(resolver, work);
            if (binary) {
                steps.repositorySteps(resolver, shape, work, report, response.getOutputStream(),
                        () -> startBinary(response, work));
            } else {
                steps.repositorySteps(resolver, shape, work, report, OutputStream.nullOutputStream(), () -> {
                });
            }
            // The port is only asked for when needed: it is the port this very request came in on.
            int port = work.fanout() > 0 ? request.getLocalPort() : 0;
            steps.blockingSteps(work, report, port, request.getHeader("Authorization"));
        } catch (WorkException e) {
            Responses.fail(response, e);
            return;
        }
        if (binary) {
            if (report.fanout().failed() > 0) {
                LOG.debug("work.bin: {} downstream calls failed after the body was sent: {}",
                        report.fanout().failed(), report.fanout().firstError());
            }
        } else {
            Responses.json(response, report.status(), report.toJson());
        }
    }

    private static void startBinary(SlingJakartaHttpServletResponse response, WorkRequest work) {
        response.setStatus(SlingJakartaHttpServletResponse.SC_OK);
        response.setContentType("application/octet-stream");
        // An int always: fileLength is capped at 100 MiB.
        response.setContentLength(Math.toIntExact(work.fileLength()));
        response.setHeader("Cache-Control", "no-store");
        // The body is the binary, so the thread is reported in headers; later steps run after the body is sent.
        response.setHeader("X-VT-Thread-Virtual", String.valueOf(Thread.currentThread().isVirtual()));
        response.setHeader("X-VT-Thread-Name", Thread.currentThread().getName());
    }
}
