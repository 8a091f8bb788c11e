package io.github.slingvt.it.e2e;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The settings in force that an operator can see, and the demo content: equal fingerprints before and after a
 * refused configuration mean that nothing but the refusal changed.
 */
final class SettingsFingerprint {

    /**
     * The pools the feature uses from the start. A pool appears in the status once it is first used, which after a
     * restart can be seconds after the HTTP side answers (Sling Event creates its pool when its job manager starts).
     */
    private static final List<String> POOLS = List.of("default", "oak", "org-apache-sling-event");

    private SettingsFingerprint() {
    }

    static String of(SlingInstance sling) throws Exception {
        StringBuilder out = new StringBuilder();
        String http = sling.get("/system/console/status-slingvt-http.txt", true).body();
        http.lines().filter(l -> l.startsWith("Mode:") || l.startsWith("Max concurrent requests:")
                || l.startsWith("Kernel max threads:"))
                // auto's live limit ("auto (now N)") moves with the load: the setting is what must not change
                .map(l -> l.replaceAll(" \\(now \\d+\\)", ""))
                .forEach(l -> out.append(l).append('\n'));
        http.lines().filter(l -> l.startsWith("Pinned virtual threads:"))
                .forEach(l -> out.append(l.substring(l.indexOf('('))).append('\n'));
        JsonNode pools = awaitPools(sling);
        for (String pool : POOLS) {
            JsonNode p = pools.path(pool);
            out.append(pool).append(": ").append(p.path("mode").asText()).append(", maxPoolSize ")
                    .append(p.path("maxPoolSize").asText()).append('\n');
        }
        JsonNode demo = RefusalChecks.awaitOk(sling, DemoServletsSupport.STATUS_JSON, false);
        out.append("demo: ").append(demo.path("nodes").asText()).append(" nodes, configured ")
                .append(demo.path("configured")).append('\n');
        return out.toString();
    }

    /** The pools' status once all of {@link #POOLS} are in it, or as it is after {@link RefusalChecks#WAIT}. */
    private static JsonNode awaitPools(SlingInstance sling) throws Exception {
        long deadline = System.nanoTime() + RefusalChecks.WAIT.toNanos();
        while (true) {
            JsonNode pools = RefusalChecks.awaitOk(sling, "/system/console/status-slingvt-threadpools.json", true);
            if (POOLS.stream().allMatch(pools::has) || System.nanoTime() > deadline) {
                return pools;
            }
            Thread.sleep(200);
        }
    }
}
