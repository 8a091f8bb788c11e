package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/** maxConcurrentRequests=50: 500 concurrent slow requests never run more than 50 at once; the rest wait or get 503. */
@RunWith(PaxExam.class)
public class BoundedModeIT extends AbstractHttpThreadsTestSupport {

    private static final int CAP = 50;
    private static final int SENT = 500;

    @Override
    protected Map<String, Object> initialConfiguration() {
        return Map.of("mode", "virtual", "maxConcurrentRequests", CAP, "queueTimeout", 1000L,
                "maxQueuedRequests", 1000, "retryAfterSeconds", 3);
    }

    @Test
    public void capHoldsAndTheRestIsAnsweredOrRejectedWithRetryAfter() throws Exception {
        long admittedBefore = threads().admitted();
        long rejectedBefore = threads().rejected();
        probe.resetPeak();
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < SENT; i++) {
            responses.add(send("sleep=1500"));
        }
        int ok = 0;
        int rejected = 0;
        for (CompletableFuture<HttpResponse<String>> f : responses) {
            HttpResponse<String> r = f.get(120, TimeUnit.SECONDS);
            if (r.statusCode() == 200) {
                assertTrue(r.body(), r.body().contains("virtual=true"));
                ok++;
            } else {
                assertEquals(r.body(), 503, r.statusCode());
                assertEquals("3", r.headers().firstValue("Retry-After").orElse("missing"));
                rejected++;
            }
        }
        assertEquals(SENT, ok + rejected);
        assertTrue("peak concurrent requests in the servlet: " + probe.peak.get(), probe.peak.get() <= CAP);
        assertTrue("some requests were served: " + ok, ok >= CAP);
        assertTrue("requests beyond the cap waited past queueTimeout and were rejected: " + rejected, rejected > 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (threads().inFlight() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0L, threads().inFlight());
        assertTrue("peak in flight " + threads().peakInFlight(), threads().peakInFlight() <= CAP);
        assertEquals(ok, threads().admitted() - admittedBefore);
        assertEquals(rejected, threads().rejected() - rejectedBefore);
        assertEquals(threads().admitted(), threads().completed());
    }
}
