package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/** 200 clients keep sending slow requests while the mode flips 10 times: nothing fails, nothing mixes up. */
@RunWith(PaxExam.class)
public class ModeToggleUnderLoadIT extends AbstractHttpThreadsTestSupport {

    private static final int CLIENTS = 200;
    private static final int FLIPS = 10;

    @Test
    public void flippingModesUnderLoadLosesNoRequest() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger sent = new AtomicInteger();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        Queue<String> bodies = new ConcurrentLinkedQueue<>();
        CountDownLatch clientsDone = new CountDownLatch(CLIENTS);
        HttpRequest slow = HttpRequest.newBuilder(URI.create(baseUrl() + PROBE + "?sleep=100"))
                .timeout(Duration.ofSeconds(60)).build();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < CLIENTS; c++) {
                clients.submit(() -> {
                    try {
                        while (!stop.get()) {
                            sent.incrementAndGet();
                            try {
                                HttpResponse<String> r = client.send(slow, HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() == 200) {
                                    bodies.add(r.body());
                                } else {
                                    failures.add("HTTP " + r.statusCode() + " " + r.body());
                                }
                            } catch (Exception e) {
                                failures.add(e.toString());
                            }
                        }
                    } finally {
                        clientsDone.countDown();
                    }
                });
            }
            String mode = "virtual";
            for (int flip = 0; flip < FLIPS; flip++) {
                Thread.sleep(400);
                mode = "virtual".equals(mode) ? "kernel" : "virtual";
                configure(Map.of("mode", mode));
            }
            Thread.sleep(400);
            stop.set(true);
            assertTrue("clients did not finish within 60 s", clientsDone.await(60, TimeUnit.SECONDS));
        }
        assertEquals("failed requests: " + failures.stream().limit(5).toList(), 0, failures.size());
        assertEquals(sent.get(), bodies.size());
        List<String> mismatched = bodies.stream()
                .filter(b -> b.contains("admittedMode=virtual") != b.contains("virtual=true"))
                .limit(5).toList();
        assertTrue("responses whose thread kind differs from their admission mode: " + mismatched,
                mismatched.isEmpty());
        long virtual = bodies.stream().filter(b -> b.contains("virtual=true")).count();
        long kernel = bodies.size() - virtual;
        assertTrue("both kinds served: virtual=" + virtual + " kernel=" + kernel, virtual > 0 && kernel > 0);
    }
}
