package io.github.slingvt.http.internal;

import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigProblem;
import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Prints the HTTP threading counters and the virtual-thread scheduler figures for the Felix web console status
 * page and status dumps; its JSON form ({@code /system/console/status-slingvt-http.json}) is what
 * {@code ./sling-vt status} reads.
 */
@Component(service = InventoryPrinter.class, property = {
    InventoryPrinter.NAME + "=slingvt-http",
    InventoryPrinter.TITLE + "=Sling VT - HTTP request threads",
    InventoryPrinter.FORMAT + "=TEXT",
    InventoryPrinter.FORMAT + "=JSON"
})
public final class HttpStatusPrinter implements InventoryPrinter {

    private final VirtualThreadsConnectorFactory factory;
    private final ConfigGuard guard;
    private final SchedulerStats scheduler;

    @Activate
    public HttpStatusPrinter(@Reference VirtualThreadsConnectorFactory factory, @Reference ConfigGuard guard) {
        this(factory, guard, SchedulerStats.platform());
    }

    HttpStatusPrinter(VirtualThreadsConnectorFactory factory, ConfigGuard guard, SchedulerStats scheduler) {
        this.factory = factory;
        this.guard = guard;
        this.scheduler = scheduler;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        ThreadingSettings settings = factory.state().settings();
        RequestCounters.Snapshot s = factory.state().snapshot();
        SchedulerStats.Figures figures = scheduler.read();
        List<ConfigProblem> problems = guard.problems();
        if (format == Format.JSON) {
            String json = s.toJson("scheduler", figures.toJson());
            out.print(json.substring(0, json.length() - 1) + ",\"configErrors\":" + configErrorsJson(problems) + "}");
            return;
        }
        out.printf("Mode: %s%n", s.mode());
        out.printf("Max concurrent requests: %s%n",
                settings.bounded() ? Integer.toString(settings.maxConcurrentRequests()) : "unbounded");
        out.printf("In flight: %d (peak %d), queued: %d%n", s.inFlight(), s.peakInFlight(), s.queued());
        out.printf("Admitted: %d, rejected: %d, completed: %d, virtual threads started: %d%n",
                s.admitted(), s.rejected(), s.completed(), s.virtualThreadsStarted());
        out.printf("Kernel max threads: %d%n", settings.kernelMaxThreads());
        out.printf("%s%n", figures.toText());
        PinningText.printText(out, factory.state().pinning());
        out.printf("Refused configurations: %s%n", problems.isEmpty() ? "none" : problems.size());
        problems.forEach(p -> out.printf("  %s%n", p.message()));
    }

    /** {@code [{"pid":..,"property":..,"value":..,"allowed":..,"message":..}]}: what ./sling-vt status shows. */
    static String configErrorsJson(List<ConfigProblem> problems) {
        return problems.stream()
                .map(p -> "{\"pid\":" + JsonText.quote(p.pid()) + ",\"property\":" + JsonText.quote(p.property())
                        + ",\"value\":" + JsonText.quote(p.value()) + ",\"allowed\":" + JsonText.quote(p.allowed())
                        + ",\"message\":" + JsonText.quote(p.message()) + "}")
                .collect(Collectors.joining(",", "[", "]"));
    }
}
