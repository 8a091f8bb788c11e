package io.github.slingvt.it.paxexam.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/** mode=kernel: requests run on Jetty's platform QueuedThreadPool, sized by kernelMaxThreads. */
@RunWith(PaxExam.class)
public class KernelModeIT extends AbstractHttpThreadsTestSupport {

    @Override
    protected Map<String, Object> initialConfiguration() {
        return Map.of("mode", "kernel", "kernelMaxThreads", 120);
    }

    @Test
    public void requestRunsOnAPlatformThread() throws Exception {
        HttpResponse<String> response = send("").get(30, TimeUnit.SECONDS);
        assertProbe(response, false);
        assertTrue(response.body(), response.body().contains("admittedMode=kernel"));
        assertTrue(response.body(), response.body().contains("thread=qtp"));
        assertEquals("kernel", threads().mode().label());
        assertEquals(0L, threads().virtualThreadsStarted());
    }
}
