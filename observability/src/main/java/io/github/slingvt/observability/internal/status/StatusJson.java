package io.github.slingvt.observability.internal.status;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;

/**
 * The JSON documents of the status printers and the console page, built with Jackson's tree model (the feature's
 * JSON library). Member names and order are what {@code ./sling-vt status}, the benchmark and the E2E tests read.
 */
public final class StatusJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StatusJson() {
    }

    /** The HTTP counters, the pinned count and the scheduler figures: the console page's JSON. */
    public static ObjectNode http(HttpThreadsSnapshot s, long pinnedEvents, SchedulerStats.Figures scheduler) {
        ObjectNode node = NODES.objectNode()
                .put("mode", s.mode().label())
                .put("maxConcurrentRequests", s.capLabel())
                .put("concurrencyLimit", s.concurrencyLimit())
                .put("inFlight", s.inFlight())
                .put("peakInFlight", s.peakInFlight())
                .put("admitted", s.admitted())
                .put("rejected", s.rejected())
                .put("abandoned", s.abandoned())
                .put("completed", s.completed())
                .put("virtualThreadsStarted", s.virtualThreadsStarted())
                .put("queued", s.queued())
                .put("newestFirst", s.newestFirst())
                .put("pinnedEvents", pinnedEvents);
        node.set("scheduler", scheduler(scheduler));
        return node;
    }

    static ObjectNode scheduler(SchedulerStats.Figures f) {
        if (!f.available()) {
            return NODES.objectNode().put("available", false).put("reason", f.unavailableReason());
        }
        return NODES.objectNode().put("available", true)
                .put("parallelism", f.parallelism())
                .put("poolSize", f.poolSize())
                .put("mountedVirtualThreadCount", f.mountedVirtualThreadCount())
                .put("queuedVirtualThreadCount", f.queuedVirtualThreadCount());
    }

    /** {@code [{"pid":..,"property":..,"value":..,"allowed":..,"message":..}]}: what ./sling-vt status shows. */
    public static ArrayNode configErrors(List<ConfigProblem> problems) {
        ArrayNode array = NODES.arrayNode();
        for (ConfigProblem p : problems) {
            array.addObject().put("pid", p.pid()).put("property", p.property()).put("value", p.value())
                    .put("allowed", p.allowed()).put("message", p.message());
        }
        return array;
    }

    /** {@code {"<name>":{"mode":"virtual","running":0,...},...}}, pools by name. */
    public static ObjectNode pools(List<ThreadPoolSnapshot> pools) {
        ObjectNode node = NODES.objectNode();
        for (ThreadPoolSnapshot s : pools) {
            node.putObject(s.name()).put("mode", s.mode().label())
                    .put("running", s.running())
                    .put("queued", s.queued())
                    .put("completed", s.completed())
                    .put("rejected", s.rejected())
                    .put("maxPoolSize", s.maxPoolSize());
        }
        return node;
    }

    /** {@code {"defaultMode":"kernel","pid":"..."}}: the answer to a switch of the Sling thread pools. */
    public static ObjectNode poolsSwitched(ThreadPoolMode mode) {
        return NODES.objectNode().put("defaultMode", mode.label()).put("pid", ThreadPools.CONFIGURATION_PID);
    }

    /** {@code {"error":"..."}}: the answer to a refused console request. */
    public static ObjectNode error(String message) {
        return NODES.objectNode().put("error", message);
    }
}
