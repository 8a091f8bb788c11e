package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue #11, item 1: changing PID {@code org.apache.felix.http} in the web console, under load, restarts Felix's
 * Jetty and leaves a working instance. Before the fix every URL, the console included, answered 404 until the JVM
 * restarted (Felix jetty12 1.1.8 failed on Sling engine's second, shadowed ServletContextHelper).
 */
class HttpReconfigurationE2EIT {

    private static final String FELIX_HTTP = "org.apache.felix.http";
    private static final int CLIENTS = 4;

    private SlingInstance sling;

    @AfterEach
    void stop() {
        if (sling != null) {
            sling.stop();
        }
    }

    @Test
    void aChangedFelixHttpConfigurationLeavesAServingInstanceOnVirtualThreads() throws Exception {
        sling = SlingInstance.builder("http-reconfig").start();
        DemoServletsSupport.awaitSeeded(sling);
        Map<String, List<String>> values = new LinkedHashMap<>();
        // Every property as the console shows it (passwords as its "unmodified" marker), as its Save button sends them.
        ConsoleConfigs.describe(sling.baseUrl(), FELIX_HTTP).path("properties").properties().forEach(e -> {
            List<String> current = new ArrayList<>();
            if (e.getValue().has("values")) {
                e.getValue().path("values").forEach(v -> current.add(v.asText()));
            } else {
                current.add(e.getValue().path("value").asText());
            }
            values.put(e.getKey(), current);
        });
        assertThat(values).as("the console describes %s", FELIX_HTTP).containsKey("org.apache.felix.http.timeout");
        values.put("org.apache.felix.http.timeout", List.of("45000"));

        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int i = 0; i < CLIENTS; i++) {
            clients.submit(() -> {
                while (loading.get()) {
                    try {
                        (sling.get("/.json").statusCode() == 200 ? ok : failed).incrementAndGet();
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                }
            });
        }
        try {
            ConsoleConfigs.apply(sling.baseUrl(), FELIX_HTTP, values);
            // Jetty is rebuilt in the background: wait (bounded) until the new one serves Sling, the console and
            // the virtual request threads again.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!serving()) {
                assertThat(System.nanoTime()).as("Sling serves again within 60 s of the change").isLessThan(deadline);
                Thread.sleep(200);
            }
            long okBefore = ok.get();
            long failedBefore = failed.get();
            Thread.sleep(3000);
            assertThat(failed.get()).as("no failed request once the new Jetty serves").isEqualTo(failedBefore);
            assertThat(ok.get()).as("requests served after the rebuild").isGreaterThan(okBefore);
        } finally {
            loading.set(false);
            clients.shutdownNow();
            assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).as("load clients stopped").isTrue();
        }
        System.out.printf("Felix HTTP reconfiguration under load: %d requests answered 200, %d failed during the "
                + "Jetty rebuild%n", ok.get(), failed.get());
        assertThat(ConsoleConfigs.stored(ConsoleConfigs.describe(sling.baseUrl(), FELIX_HTTP),
                "org.apache.felix.http.timeout")).isEqualTo("45000");
        assertThat(DemoServletsSupport.json(sling.get(DemoServletsSupport.WORK_JSON)).at("/thread/virtual").asBoolean())
                .as("requests on virtual threads after the rebuild").isTrue();
    }

    private boolean serving() {
        try {
            return sling.get("/.json").statusCode() == 200
                    && sling.get(DemoServletsSupport.CONSOLE_SLINGVT, true).statusCode() == 200
                    && sling.get(DemoServletsSupport.WORK_JSON).statusCode() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
