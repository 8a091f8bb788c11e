package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps Felix's servlet context. Kernel mode: handles the request on the calling Jetty thread. Virtual mode: Jetty
 * parsed the request head on one of its platform threads; this hands the request to a new virtual thread and frees
 * the Jetty thread at once. Unbounded, the request only is counted; bounded, it is admitted first (or queued, or
 * refused). A request keeps the mode it was admitted under, which is what makes a mode switch lossless.
 *
 * <p>Why not Jetty's own "virtual threads executor" of the pool, which would parse the head on the virtual thread
 * too: Jetty's selectors read it only when they start, so using it means restarting Felix's connectors after the
 * hand-off, which resets every live connection whenever this bundle is installed or updated (issue #11). The hand-off
 * here works on connectors that are already running, and costs one short task on a platform thread per request.
 */
final class DispatchHandler extends Handler.Wrapper {

    /** The Felix web console's default root ({@code felix.webconsole.manager.root}). */
    static final String ADMIN_PATH = "/system/console";

    /** The Felix health check servlet's default root: readiness and liveness probes, a load balancer's checks. */
    static final String HEALTH_PATH = "/system/health";

    /** Request attribute: the mode ("virtual" or "kernel") the request was admitted under. */
    static final String ADMITTED_MODE_ATTRIBUTE = "io.github.slingvt.http.admittedMode";

    private static final Logger LOG = LoggerFactory.getLogger(DispatchHandler.class);
    private static final ByteBuffer REJECTED_BODY = ByteBuffer.wrap(
            "503 Service Unavailable: too many concurrent requests, retry later\n".getBytes(StandardCharsets.UTF_8))
            .asReadOnlyBuffer();

    private final ThreadingState state;

    DispatchHandler(ThreadingState state) {
        super(true);
        this.state = state;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null) {
            return false;
        }
        long arrived = System.nanoTime();
        ThreadingSettings settings = state.settings();
        if (Thread.currentThread().isVirtual() || isAdmin(request)) {
            ThreadingMode here = Thread.currentThread().isVirtual() ? ThreadingMode.VIRTUAL : ThreadingMode.KERNEL;
            request.setAttribute(ADMITTED_MODE_ATTRIBUTE, here.label());
            state.gate().track();
            return handleHere(next, request, response, callback, arrived, new Slot(state.gate()));
        }
        AdmissionGate gate = state.gate();
        if (settings.mode() == ThreadingMode.KERNEL) {
            // Admitted up to kernelMaxThreads, so that a lowered pool size is in force at once although Jetty's pool
            // keeps its surplus threads until they are idle; a request admitted later runs on the pool.
            request.setAttribute(ADMITTED_MODE_ATTRIBUTE, ThreadingMode.KERNEL.label());
            if (gate.tryEnter()) {
                return handleHere(next, request, response, callback, arrived, new Slot(gate));
            }
            gate.enter(new Outcomes(
                    slot -> onPool(() -> handleHere(next, request, response, callback, arrived, slot), response, slot,
                            callback),
                    () -> reject(request, response, callback, settings.retryAfterSeconds()),
                    failure -> failedWhileWaiting(callback, failure)),
                    request::addFailureListener);
            return true;
        }
        request.setAttribute(ADMITTED_MODE_ATTRIBUTE, ThreadingMode.VIRTUAL.label());
        if (!settings.bounded()) {
            // Nothing to wait for, but counted: a switch to a bounded mode then sees what is already running.
            gate.track();
            startVirtual(next, request, response, callback, arrived, new Slot(gate));
            return true;
        }
        gate.enter(new Outcomes(
                slot -> startVirtual(next, request, response, callback, arrived, slot),
                () -> reject(request, response, callback, settings.retryAfterSeconds()),
                failure -> failedWhileWaiting(callback, failure)),
                request::addFailureListener);
        return true;
    }

    /** Runs an admitted kernel-mode request on Jetty's pool; its slot is taken already. */
    private void onPool(ThrowingRunnable handle, Response response, Slot slot, Callback callback) {
        try {
            getServer().getThreadPool().execute(() -> {
                try {
                    if (!handle.run()) {
                        Response.writeError(response.getRequest(), response, callback, HttpStatus.NOT_FOUND_404);
                    }
                } catch (Throwable t) {
                    callback.failed(t);
                }
            });
        } catch (RuntimeException e) {
            LOG.error("Jetty's pool refused an admitted request", e);
            // It never ran: booked as refused, and its slot is free again.
            state.counters().rejected();
            slot.giveBack();
            callback.failed(e);
        }
    }

    /** A handler call that may throw, answering whether it handled the request. */
    @FunctionalInterface
    private interface ThrowingRunnable {
        boolean run() throws Exception;
    }

    /**
     * Jetty failed the request while it waited for admission (an idle timeout, an HTTP/2 stream reset, a failed
     * connection: how Jetty tells that a client left): it left the queue unrun, counted as abandoned, and its callback, which Jetty leaves to the handler once the handler has
     * it, is completed here, as aborted: the failure is not the server's, and an error page would answer a 500.
     */
    private void failedWhileWaiting(Callback callback, Throwable failure) {
        state.counters().abandoned();
        callback.failed(new Request.Handler.AbortException("failed while waiting for admission", failure));
    }

    /**
     * The web console and the health checks: an operator who switches modes or reads the counters under overload must
     * not queue behind the application's requests, and a load balancer whose readiness check were refused under load
     * would take a saturated but healthy node out and move its load onto the others. They run on the thread they
     * arrived on and are counted, never queued or refused.
     */
    static boolean isAdmin(Request request) {
        String path = Request.getPathInContext(request);
        return under(path, ADMIN_PATH) || under(path, HEALTH_PATH);
    }

    private static boolean under(String path, String root) {
        return path != null && (path.equals(root) || path.startsWith(root + "/") || path.startsWith(root + "."));
    }

    /** Runs the request on this thread; its slot (admitted or tracked) is taken already. */
    private boolean handleHere(Handler next, Request request, Response response, Callback callback, long arrived,
            Slot slot) throws Exception {
        RequestCounters counters = state.counters();
        boolean virtual = Thread.currentThread().isVirtual();
        counters.admitted(virtual);
        // Released when the response is complete and the handler has returned, so that a kernel-mode cap also bounds
        // the threads busy with requests (a response may complete inside the handler, before its thread is free).
        Completion completion = new Completion(2, () -> {
            counters.completed(virtual, System.nanoTime() - arrived);
            slot.giveBack();
        });
        boolean handled;
        try {
            handled = next.handle(request, response, Callback.from(completion::done, callback));
        } catch (Throwable t) {
            // Release now; a later failure of the callback by Jetty finds the completion done.
            completion.done();
            completion.done();
            throw t;
        }
        completion.done();
        if (!handled) {
            completion.done();
        }
        return handled;
    }

    /** Runs the request on a new virtual thread; its slot (admitted or tracked) is taken already. */
    private void startVirtual(Handler next, Request request, Response response, Callback callback, long arrived,
            Slot slot) {
        RequestCounters counters = state.counters();
        counters.admitted(true);
        // The slot is released when both the response is complete and the thread has ended, so that live
        // request threads never exceed the cap either.
        Completion completion = new Completion(2, () -> {
            counters.completed(true, System.nanoTime() - arrived);
            slot.giveBack();
        });
        Callback tracked = Callback.from(completion::done, callback);
        try {
            state.virtualThreads().newThread(() -> {
                try {
                    runChain(next, request, response, tracked);
                } finally {
                    completion.done();
                }
            }).start();
        } catch (Throwable t) {
            LOG.error("Could not start a virtual thread for {}", request.getHttpURI(), t);
            completion.done();
            Response.writeError(request, response, tracked, HttpStatus.SERVICE_UNAVAILABLE_503, "no thread", t);
        }
    }

    private static void runChain(Handler next, Request request, Response response, Callback callback) {
        try {
            if (!next.handle(request, response, callback)) {
                Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            }
        } catch (Throwable t) {
            if (response.isCommitted()) {
                callback.failed(t);
            } else {
                Response.writeError(request, response, callback, t);
            }
        }
    }

    private void reject(Request request, Response response, Callback callback, int retryAfterSeconds) {
        state.counters().rejected();
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE_503);
        // A refused request's body is never read. Jetty closes the connection after the answer when the body has not
        // all arrived, and it can no longer say so once the answer is written: a client (or a balancer) that sends
        // its next request on that connection then gets no answer at all. Said here, so it opens a new one.
        if (!request.consumeAvailable()) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(retryAfterSeconds));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, REJECTED_BODY.slice(), callback);
    }

    /** Runs {@code action} once after {@code parts} calls of {@link #done()}. */
    private static final class Completion {
        private final AtomicInteger remaining;
        private final Runnable action;

        Completion(int parts, Runnable action) {
            this.remaining = new AtomicInteger(parts);
            this.action = action;
        }

        void done() {
            if (remaining.decrementAndGet() == 0) {
                action.run();
            }
        }
    }
}
