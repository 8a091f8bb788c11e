package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/** A bad configuration is refused with a reason and the settings in force keep serving. */
@RunWith(PaxExam.class)
public class InvalidConfigurationIT extends AbstractHttpThreadsTestSupport {

    @Override
    protected Map<String, Object> initialConfiguration() {
        return Map.of("mode", "virtual", "maxConcurrentRequests", 40);
    }

    @Test
    public void unknownModeIsRefusedAndVirtualModeStays() throws Exception {
        refuse(Map.of("mode", "kernl", "maxConcurrentRequests", 40), "'mode' = 'kernl'");
        assertEquals("virtual", threads().mode().label());
        assertProbe(send("").get(30, TimeUnit.SECONDS), true);
    }

    @Test
    public void negativeCapIsRefusedAndTheOldCapStays() throws Exception {
        refuse(Map.of("mode", "kernel", "maxConcurrentRequests", -5), "'maxConcurrentRequests' = '-5'");
        assertEquals(40, threads().maxConcurrentRequests());
        assertEquals("virtual", threads().mode().label());
        assertProbe(send("").get(30, TimeUnit.SECONDS), true);
    }

    private void refuse(Map<String, Object> bad, String expectedReason) throws Exception {
        long refusedBefore = threads().refusedConfigurations();
        Dictionary<String, Object> dict = new Hashtable<>(bad);
        configurationAdmin.getConfiguration(PID, null).update(dict);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (threads().refusedConfigurations() == refusedBefore) {
            assertTrue("configuration was not refused within 20 s", System.nanoTime() < deadline);
            Thread.sleep(20);
        }
        String reason = threads().lastConfigurationError();
        assertTrue(reason, reason.contains(expectedReason));
    }
}
