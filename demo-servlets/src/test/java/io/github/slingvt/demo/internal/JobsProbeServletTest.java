package io.github.slingvt.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.json.JsonObject;

import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SlingContextExtension.class)
class JobsProbeServletTest {

    private final SlingContext context = new SlingContext();

    private MockSlingJakartaHttpServletResponse get(JobThreadsProbe probe) throws Exception {
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        new JobsProbeServlet(probe).service(context.jakartaRequest(), response);
        return response;
    }

    @Test
    void bothJobsRanIsA200WithTheirThreads() throws Exception {
        JobThreadsProbe[] self = new JobThreadsProbe[1];
        self[0] = new JobThreadsProbe((id, task) -> {
            Thread.ofVirtual().name("scheduled").start(task);
            return true;
        }, (id, task) -> {
            Thread.ofVirtual().name("job").start(() -> self[0].jobRan(id));
            return true;
        }, Duration.ofSeconds(5));
        MockSlingJakartaHttpServletResponse response = get(self[0]);
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getJsonObject("scheduler").getString("thread")).isEqualTo("scheduled");
        assertThat(body.getJsonObject("scheduler").getBoolean("virtual")).isTrue();
        assertThat(body.getJsonObject("event").getString("thread")).isEqualTo("job");
        assertThat(body.getJsonObject("event").getBoolean("virtual")).isTrue();
    }

    @Test
    void aJobThatDidNotRunIsA504() throws Exception {
        MockSlingJakartaHttpServletResponse response = get(new JobThreadsProbe((id, task) -> {
            task.run();
            return true;
        }, (id, task) -> true, Duration.ofMillis(100)));
        assertThat(response.getStatus()).isEqualTo(504);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getJsonObject("event").getString("error")).isEqualTo("did not run within 100 ms");
        assertThat(body.getJsonObject("scheduler").getBoolean("virtual")).isFalse();
    }
}
