package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import javax.management.ObjectName;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.osgi.framework.ServiceReference;

import io.github.slingvt.http.api.HttpModeSwitch;
import io.github.slingvt.http.api.ThreadingMode;

/**
 * The split is real: the HTTP bundle runs requests on virtual threads and switches live with no observability
 * bundle in the framework (no console page, status printer, JMX or health check), through its own API only.
 */
@RunWith(PaxExam.class)
public class HttpBundleAloneIT extends AbstractHttpThreadsTestSupport {

    @Test
    public void noObservabilityBundleNoMBeanAndRequestsStillRunVirtual() throws Exception {
        assertFalse("observability must not be provisioned here",
                Arrays.stream(bundleContext.getBundles()).anyMatch(b -> "observability".equals(b.getSymbolicName())));
        assertFalse(ManagementFactory.getPlatformMBeanServer()
                .isRegistered(new ObjectName("io.github.slingvt:type=HttpThreads")));

        long virtualBefore = threads().virtualThreadsStarted();
        assertProbe(send("").get(30, TimeUnit.SECONDS), true);
        assertEquals(virtualBefore + 1, threads().virtualThreadsStarted());
    }

    @Test
    public void theModeSwitchServiceMovesRequestsToPlatformThreadsAndBack() throws Exception {
        ServiceReference<HttpModeSwitch> reference = bundleContext.getServiceReference(HttpModeSwitch.class);
        HttpModeSwitch modeSwitch = bundleContext.getService(reference);
        try {
            assertTrue("kernel in force within 10 s", modeSwitch.switchTo(ThreadingMode.KERNEL, Duration.ofSeconds(10)));
            assertProbe(send("").get(30, TimeUnit.SECONDS), false);
            assertEquals("kernel", configurationAdmin.getConfiguration(PID, null).getProperties().get("mode"));

            assertTrue("virtual in force within 10 s",
                    modeSwitch.switchTo(ThreadingMode.VIRTUAL, Duration.ofSeconds(10)));
            assertProbe(send("").get(30, TimeUnit.SECONDS), true);
        } finally {
            bundleContext.ungetService(reference);
        }
    }
}
