package io.github.slingvt.observability.internal.status;

import java.io.PrintWriter;
import java.util.List;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.pinning.PinningText;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Prints the HTTP threading counters, the pinned virtual threads and the virtual-thread scheduler figures for the
 * Felix web console status page and status dumps; its JSON form ({@code /system/console/status-slingvt-http.json})
 * is what {@code ./sling-vt status} reads.
 */
@Component(service = InventoryPrinter.class, property = {
    InventoryPrinter.NAME + "=slingvt-http",
    InventoryPrinter.TITLE + "=Sling VT - HTTP request threads",
    InventoryPrinter.FORMAT + "=TEXT",
    InventoryPrinter.FORMAT + "=JSON"
})
public final class HttpStatusPrinter implements InventoryPrinter {

    private final HttpThreads threads;
    private final PinnedThreads pinning;
    private final ConfigGuard guard;
    private final SchedulerStats scheduler;

    @Activate
    public HttpStatusPrinter(@Reference HttpThreads threads, @Reference PinnedThreads pinning,
            @Reference ConfigGuard guard) {
        this(threads, pinning, guard, SchedulerStats.platform());
    }

    HttpStatusPrinter(HttpThreads threads, PinnedThreads pinning, ConfigGuard guard, SchedulerStats scheduler) {
        this.threads = threads;
        this.pinning = pinning;
        this.guard = guard;
        this.scheduler = scheduler;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        HttpThreadsSnapshot s = threads.snapshot();
        SchedulerStats.Figures figures = scheduler.read();
        List<ConfigProblem> problems = guard.problems();
        if (format == Format.JSON) {
            ObjectNode json = StatusJson.http(s, pinning.count(), figures);
            json.set("configErrors", StatusJson.configErrors(problems));
            out.print(json);
            return;
        }
        out.printf("Mode: %s%n", s.mode().label());
        out.printf("Max concurrent requests: %s%n", CapText.of(s));
        out.printf("In flight: %d (peak %d), queued: %d%n", s.inFlight(), s.peakInFlight(), s.queued());
        if (s.newestFirst()) {
            out.printf("Queue order: newest first (the queue is in overload)%n");
        }
        out.printf("Admitted: %d, rejected: %d, abandoned: %d, completed: %d, virtual threads started: %d%n",
                s.admitted(), s.rejected(), s.abandoned(), s.completed(), s.virtualThreadsStarted());
        out.printf("Kernel max threads: %d%n", s.kernelMaxThreads());
        out.printf("%s%n", figures.toText());
        PinningText.printText(out, pinning);
        out.printf("Refused configurations: %s%n", problems.isEmpty() ? "none" : problems.size());
        problems.forEach(p -> out.printf("  %s%n", p.message()));
    }
}
