package io.github.slingvt.threads.internal;

import java.io.PrintWriter;
import java.util.List;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The thread pools in the Felix web console status page and status dumps; its JSON form
 * ({@code /system/console/status-slingvt-threadpools.json}) is what {@code ./sling-vt status} reads.
 */
@Component(service = InventoryPrinter.class, property = {
    InventoryPrinter.NAME + "=slingvt-threadpools",
    InventoryPrinter.TITLE + "=Sling VT - Thread pools",
    InventoryPrinter.FORMAT + "=TEXT",
    InventoryPrinter.FORMAT + "=JSON"
})
public final class ThreadPoolsStatusPrinter implements InventoryPrinter {

    private final VirtualThreadPoolManager manager;

    @Activate
    public ThreadPoolsStatusPrinter(@Reference VirtualThreadPoolManager manager) {
        this.manager = manager;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        List<PoolStatus> statuses = manager.statuses();
        if (format == Format.JSON) {
            out.print(PoolStatus.toJson(statuses));
            return;
        }
        out.printf("Settings (%s): %s%n", VirtualThreadPoolsConfig.PID, manager.settings());
        out.printf("%nPools in use: %d%n", statuses.size());
        for (PoolStatus s : statuses) {
            out.printf("%s%n  mode: %s, maxPoolSize: %s, running: %d, queued: %d, completed: %d, rejected: %d%s%n",
                    s.name(), s.mode().label(),
                    s.maxPoolSize() == Integer.MAX_VALUE ? "unlimited" : Integer.toString(s.maxPoolSize()),
                    s.running(), s.queued(), s.completed(), s.rejected(),
                    s.draining() > 0 ? ", draining after a switch: " + s.draining() + " executor(s)" : "");
        }
        List<PoolDefinition> definitions = manager.definitions();
        out.printf("%nConfigured pools (%s): %d%n", ThreadPoolFactoryConfig.FACTORY_PID, definitions.size());
        for (PoolDefinition d : definitions) {
            out.printf("  %s (%s): maxPoolSize %d, queueSize %d, blockPolicy %s%n", d.name(), d.pid(),
                    d.config().getMaxPoolSize(), d.config().getQueueSize(), d.config().getBlockPolicy());
        }
    }
}
