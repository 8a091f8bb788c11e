package io.github.slingvt.demo.internal.jobs;

import io.github.slingvt.demo.internal.Fixtures;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.json.JsonObject;

import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SlingContextExtension.class)
public class JobsProbeServletTest {

    private final SlingContext context = new SlingContext();

    /** POST as admin: the probe adds a Sling job, so it is POST only, for a logged-in user. */
    private MockSlingJakartaHttpServletResponse get(JobThreadsProbe probe) throws Exception {
        return send(probe, "POST", "admin");
    }

    private MockSlingJakartaHttpServletResponse send(JobThreadsProbe probe, String method, String user)
            throws Exception {
        context.jakartaRequest().setMethod(method);
        context.jakartaRequest().setRemoteUser(user);
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        new JobsProbeServlet(probe).service(context.jakartaRequest(), response);
        return response;
    }

    @Test
    void aGetOrAnAnonymousPostAddsNoJob() throws Exception {
        JobThreadsProbe probe = new JobThreadsProbe((id, task) -> {
            throw new AssertionError("no scheduler job may be started");
        }, (id, task) -> {
            throw new AssertionError("no Sling job may be added");
        }, Duration.ofSeconds(1));
        assertThat(send(probe, "GET", "admin").getStatus()).isEqualTo(405);
        assertThat(send(probe, "POST", null).getStatus()).isEqualTo(403);
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
