package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.http.InvalidParameterException;
import io.github.slingvt.demo.internal.http.Responses;
import io.github.slingvt.demo.internal.steps.Fanout;
import io.github.slingvt.demo.internal.steps.LocalSteps;
import io.github.slingvt.demo.internal.steps.WorkException;
import io.github.slingvt.demo.internal.steps.WorkReport;
import io.github.slingvt.demo.internal.steps.WorkRequest;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.sling.api.resource.ResourceResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/**
 * GET /bin/vt/work-async.json: the same workload as {@link WorkServlet}, written with the Servlet async API. The
 * request thread does the repository steps and returns; the idle wait runs on a timer, the SHA-256 rounds on a
 * small platform pool sized to the CPUs, and the downstream calls as {@code sendAsync} futures.
 * <p>
 * Registered on the HTTP whiteboard in Sling's servlet context rather than through Sling's servlet resolver: the
 * Sling main servlet (engine 3.0.2) is registered without async support, so a Sling servlet cannot start async.
 * Sling's context still authenticates the request and hands over its resource resolver as a request attribute.
 */
public final class AsyncWorkServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(AsyncWorkServlet.class);

    static final String PATH = "/bin/vt/work-async.json";
    /** Where Sling's authentication support leaves the request's resolver (AuthenticationSupport). */
    static final String RESOLVER_ATTRIBUTE = "org.apache.sling.auth.core.ResourceResolver";

    private final transient WorkSteps steps;
    private final transient Executor cpuPool;
    private final transient AnonymousLimits anonymous;

    AsyncWorkServlet(WorkSteps steps, Executor cpuPool, AnonymousLimits anonymous) {
        this.steps = steps;
        this.cpuPool = cpuPool;
        this.anonymous = anonymous;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        WorkRequest work;
        try {
            work = WorkRequest.parse(request::getParameter);
        } catch (InvalidParameterException e) {
            Responses.badRequest(response, e);
            return;
        }
        if (work.writes() > 0) {
            // GET never changes state; scratch writes are POST /bin/vt/work.json, for a logged-in user.
            Responses.postOnly(response, "writes=" + work.writes() + " (use POST /bin/vt/work.json)");
            return;
        }
        if (!AnonymousLimits.allow(request, response, anonymous.exceeded(work))) {
            return;
        }
        boolean async = request.isAsyncSupported();
        WorkReport report = new WorkReport("async", work);
        report.put("async", async);
        if (!(request.getAttribute(RESOLVER_ATTRIBUTE) instanceof ResourceResolver resolver)) {
            Responses.unavailable(response, new WorkException("reads", "no Sling resource resolver on the request; "
                    + "is this servlet registered in Sling's servlet context?"));
            return;
        }
        try {
            TreeShape shape = steps.checkContent(resolver, work);
            steps.repositorySteps(resolver, shape, work, report, OutputStream.nullOutputStream(), () -> {
            });
        } catch (WorkException e) {
            Responses.fail(response, e);
            return;
        }
        int port = work.fanout() > 0 ? request.getLocalPort() : 0;
        String authorization = request.getHeader("Authorization");
        if (async) {
            answerLater(request.startAsync(), work, report, port, authorization);
        } else {
            answerNow(response, work, report, port, authorization);
        }
    }

    private void answerLater(AsyncContext context, WorkRequest work, WorkReport report, int port,
            String authorization) {
        AtomicBoolean answered = new AtomicBoolean();
        context.setTimeout(timeoutMillis(work));
        context.addListener(new AsyncListener() {
            @Override
            public void onTimeout(AsyncEvent event) {
                answer(context, answered, null, new WorkException("async", "no answer within "
                        + timeoutMillis(work) + " ms"));
            }

            @Override
            public void onComplete(AsyncEvent event) {
                // nothing to release
            }

            @Override
            public void onError(AsyncEvent event) {
                LOG.debug("Async work request failed: {}", String.valueOf(event.getThrowable()));
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // not restarted
            }
        });
        try {
            waits(work, report, port, authorization).whenComplete(
                    (done, error) -> answer(context, answered, done, error == null ? null : failure(error)));
        } catch (RuntimeException e) {
            // The CPU pool refuses work once the servlet is being unregistered.
            answer(context, answered, null, failure(e));
        }
    }

    /** Only when something in front of this servlet was registered without async support: block instead. */
    private void answerNow(HttpServletResponse response, WorkRequest work, WorkReport report, int port,
            String authorization) throws IOException {
        try {
            WorkReport done = waits(work, report, port, authorization)
                    .get(timeoutMillis(work), TimeUnit.MILLISECONDS);
            Responses.json(response, done.status(), done.toJson());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Responses.fail(response, new WorkException("async", "interrupted", e));
        } catch (ExecutionException e) {
            Responses.fail(response, failure(e.getCause()));
        } catch (TimeoutException e) {
            Responses.fail(response, new WorkException("async", "no answer within " + timeoutMillis(work) + " ms"));
        } catch (RuntimeException e) {
            Responses.fail(response, failure(e));
        }
    }

    /** idleDelay, cpuIterations and fanout as a chain of stages that holds no thread while it waits. */
    CompletableFuture<WorkReport> waits(WorkRequest work, WorkReport report, int port, String authorization) {
        long idleStart = System.nanoTime();
        Executor afterIdle = work.idleDelay() > 0
                ? CompletableFuture.delayedExecutor(work.idleDelay(), TimeUnit.MILLISECONDS, cpuPool)
                : cpuPool;
        return CompletableFuture.runAsync(() -> report.idle(idleStart), afterIdle)
                .thenApply(ignored -> {
                    long start = System.nanoTime();
                    report.cpu(LocalSteps.cpu(work.cpuIterations()), start);
                    return System.nanoTime();
                })
                .thenCompose(fanoutStart -> steps.fanout()
                        .callAsync(port, work.fanout(), work.fanoutDelay(), authorization)
                        // Back on the pool: the client's futures complete on threads this servlet does not own.
                        .thenApplyAsync(result -> {
                            report.fanout(result, fanoutStart);
                            report.put("completedOn", WorkReport.currentThread());
                            return report;
                        }, cpuPool));
    }

    private static long timeoutMillis(WorkRequest work) {
        return work.idleDelay() + work.fanoutDelay() + Fanout.TIMEOUT_MARGIN_MS + 30_000;
    }

    private static WorkException failure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof WorkException work ? work : new WorkException("async", cause.toString(), cause);
    }

    /** Writes the one answer of this request: from the chain, or from the timeout, whichever comes first. */
    private static void answer(AsyncContext context, AtomicBoolean answered, WorkReport report, WorkException error) {
        if (!answered.compareAndSet(false, true)) {
            return;
        }
        try {
            HttpServletResponse response = (HttpServletResponse) context.getResponse();
            if (error != null) {
                Responses.fail(response, error);
            } else {
                Responses.json(response, report.status(), report.toJson());
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not write the async work answer: {}", e.toString());
        } finally {
            context.complete();
        }
    }
}
