package io.github.slingvt.it.paxexam.threads;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.apache.sling.commons.scheduler.Scheduler;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;

/**
 * The whole feature: the observability bundle's views (JMX, the status printers behind {@code ./sling-vt status})
 * show the same figures as the HTTP and pool bundles' own APIs, after real requests and real pool tasks.
 */
@RunWith(PaxExam.class)
public class ObservabilityViewsIT extends AbstractThreadPoolsTestSupport {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected void startJob(int index) throws Exception {
        Scheduler scheduler = service(Scheduler.class);
        assertTrue(scheduler.schedule((Runnable) () -> record(index), scheduler.NOW().name("slingvt-it-view-" + index)));
    }

    @Test
    public void jmxAndStatusPrinterShowTheHttpBundlesFigures() throws Exception {
        HttpThreads threads = service(HttpThreads.class);
        for (int i = 0; i < 5; i++) {
            httpGet("/slingvt-it-missing-" + i);
        }
        awaitTrue("requests completed", () -> threads.snapshot().inFlight() == 0);
        HttpThreadsSnapshot s = threads.snapshot();
        assertTrue("requests were counted: " + s, s.admitted() >= 5 && s.virtualThreadsStarted() >= 5);

        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("io.github.slingvt:type=HttpThreads");
        awaitTrue("MBean registered", () -> server.isRegistered(name));
        assertEquals(s.mode().label(), server.getAttribute(name, "Mode"));
        assertEquals(s.admitted(), server.getAttribute(name, "Admitted"));
        assertEquals(s.completed(), server.getAttribute(name, "Completed"));
        assertEquals(s.rejected(), server.getAttribute(name, "Rejected"));
        assertEquals(s.virtualThreadsStarted(), server.getAttribute(name, "VirtualThreadsStarted"));
        // The default is auto: the setting says so, the cap is the live limit (it moves every 100 ms).
        assertEquals("auto", server.getAttribute(name, "MaxConcurrentRequestsSetting"));
        assertEquals(Boolean.TRUE, server.getAttribute(name, "Adaptive"));
        int cap = (Integer) server.getAttribute(name, "MaxConcurrentRequests");
        assertTrue("live limit " + cap, cap >= 20 && cap <= 10_000);
        assertEquals(s.kernelMaxThreads(), server.getAttribute(name, "KernelMaxThreads"));

        JsonNode status = JSON.readTree(print("slingvt-http"));
        assertEquals(s.mode().label(), status.path("mode").asText());
        assertEquals(s.admitted(), status.path("admitted").asLong());
        assertEquals(s.completed(), status.path("completed").asLong());
        assertEquals(s.virtualThreadsStarted(), status.path("virtualThreadsStarted").asLong());
        assertTrue(status.toString(), status.path("pinnedEvents").isNumber() && status.path("configErrors").isArray());
    }

    @Test
    public void statusPrinterShowsThePoolBundlesFigures() throws Exception {
        setPoolModes();
        for (int i = 0; i < 3; i++) {
            startJob(i);
        }
        awaitRuns(0, 3);
        awaitTrue("pool default counted the jobs", () -> completed("default") >= 3);

        // Oak creates its pools lazily in the background: compare the pools that existed before printing, so a
        // pool born between the two reads cannot make the views look different.
        List<ThreadPoolSnapshot> before = pools();
        JsonNode printed = JSON.readTree(print("slingvt-threadpools"));
        for (ThreadPoolSnapshot pool : before) {
            JsonNode node = printed.path(pool.name());
            assertEquals(pool.name(), pool.mode().label(), node.path("mode").asText());
            assertEquals(pool.name(), pool.maxPoolSize(), node.path("maxPoolSize").asInt());
        }
        assertEquals(completed("default"), printed.path("default").path("completed").asLong());
    }

    private long completed(String pool) {
        return pools().stream().filter(p -> p.name().equals(pool)).mapToLong(ThreadPoolSnapshot::completed)
                .findFirst().orElse(-1);
    }

    private String print(String printerName) throws Exception {
        InventoryPrinter printer = bundleContext.getServiceReferences(InventoryPrinter.class,
                "(" + InventoryPrinter.NAME + "=" + printerName + ")").stream().findFirst()
                .map(bundleContext::getService).orElseThrow(() -> new AssertionError("no printer " + printerName));
        StringWriter out = new StringWriter();
        printer.print(new PrintWriter(out), Format.JSON, false);
        return out.toString();
    }
}
