package io.github.slingvt.it.paxexam.http;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Reports the thread kind a request ran on and the mode it was admitted under; {@code ?sleep=ms} blocks first,
 * {@code ?park=true} blocks until {@link #release()}, {@code ?burn=ms} keeps its carrier busy that long (CPU-bound
 * work). Counts how many requests run at once.
 */
public final class ProbeServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger peak = new AtomicInteger();
    private volatile CountDownLatch parked = new CountDownLatch(1);

    void release() {
        parked.countDown();
    }

    void resetPark() {
        parked = new CountDownLatch(1);
    }

    void resetPeak() {
        peak.set(0);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            String sleep = request.getParameter("sleep");
            if (sleep != null) {
                Thread.sleep(Long.parseLong(sleep));
            }
            String burn = request.getParameter("burn");
            if (burn != null) {
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(burn));
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            if ("true".equals(request.getParameter("park")) && !parked.await(120, TimeUnit.SECONDS)) {
                response.sendError(504, "never released");
                return;
            }
            Thread t = Thread.currentThread();
            response.setContentType("text/plain;charset=utf-8");
            response.getWriter().print("virtual=" + t.isVirtual()
                    + " admittedMode=" + request.getAttribute("io.github.slingvt.http.admittedMode")
                    + " thread=" + t.getName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.sendError(500, "interrupted");
        } finally {
            running.decrementAndGet();
        }
    }
}
