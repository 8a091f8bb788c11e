package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/**
 * Default configuration: every request on its own virtual thread, admitted by the carriers ({@code auto}), which
 * admit every request of a load that waits.
 */
@RunWith(PaxExam.class)
public class VirtualModeIT extends AbstractHttpThreadsTestSupport {

    @Test
    public void requestRunsOnAVirtualThread() throws Exception {
        HttpResponse<String> response = send("").get(30, TimeUnit.SECONDS);
        assertProbe(response, true);
        assertTrue(response.body(), response.body().contains("admittedMode=virtual"));
        assertTrue(response.body(), response.body().contains("thread=slingvt-http-"));
        assertEquals("virtual", threads().mode().label());
    }

    @Test
    public void twoThousandParkedRequestsNeedFewerThanAHundredPlatformThreads() throws Exception {
        int parked = 2000;
        probe.resetPark();
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < parked; i++) {
            responses.add(send("park=true"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (probe.running.get() < parked) {
            assertTrue("only " + probe.running.get() + " of " + parked + " requests arrived within 90 s",
                    System.nanoTime() < deadline);
            Thread.sleep(50);
        }
        // ThreadMXBean counts platform threads only: the JVM's, Felix's, Jetty's and this test's.
        int platformThreads = ManagementFactory.getThreadMXBean().getThreadCount();
        String byPrefix = Thread.getAllStackTraces().keySet().stream()
                .collect(Collectors.groupingBy(t -> t.getName().replaceAll("[-_ #]?\\d+$", ""), Collectors.counting()))
                .toString();
        long inFlight = threads().inFlight();
        probe.release();
        for (CompletableFuture<HttpResponse<String>> r : responses) {
            assertProbe(r.get(60, TimeUnit.SECONDS), true);
        }
        assertTrue("in flight while parked: " + inFlight, inFlight >= parked);
        assertTrue("platform threads while " + parked + " requests were parked: " + platformThreads + " " + byPrefix,
                platformThreads < 100);
    }
}
