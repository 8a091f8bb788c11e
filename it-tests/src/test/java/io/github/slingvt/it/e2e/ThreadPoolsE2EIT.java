package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * commons-threads-virtual in the launched feature (shared instance): the Sling Scheduler and Sling Event pools are
 * virtual by default, as the status printer reports, and a scheduled job and an Event job really run on virtual
 * threads (the demo probe {@code /bin/vt/jobs.json} starts one of each and reports their threads).
 */
@ExtendWith(SharedSlingInstance.class)
class ThreadPoolsE2EIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STATUS = "/system/console/status-slingvt-threadpools.json";
    private static final String JOBS_PROBE = "/bin/vt/jobs.json";
    private static final String JOB_POOL_LABEL = "Apache Sling Job Thread Pool";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The probe waits at most 10 s per request, so this bounds the wait for Sling Event at about 90 s. */
    private static final int PROBE_ATTEMPTS = 9;

    private final SlingInstance sling;

    ThreadPoolsE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @Test
    void schedulerAndEventPoolsAreVirtualByDefault() throws Exception {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode pools = status();
        while ((pools.path("default").isMissingNode() || pools.path("org-apache-sling-event").isMissingNode()
                || jobPool(pools) == null) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            pools = status();
        }
        assertThat(pools.path("default").path("mode").asText()).as("scheduler pool 'default' in %s", pools)
                .isEqualTo("virtual");
        assertThat(pools.path("org-apache-sling-event").path("mode").asText())
                .as("pool 'org-apache-sling-event' in %s", pools).isEqualTo("virtual");
        assertThat(pools.path("org-apache-sling-event").path("maxPoolSize").asInt())
                .as("size of 'org-apache-sling-event' from event.json in %s", pools).isEqualTo(5);
        final JsonNode jobPool = jobPool(pools);
        assertThat(jobPool).as("anonymous pool labelled '%s' in %s", JOB_POOL_LABEL, pools).isNotNull();
        assertThat(jobPool.path("mode").asText()).as("mode of the job pool in %s", pools).isEqualTo("virtual");
    }

    @Test
    void scheduledAndEventJobsRunOnVirtualThreads() throws Exception {
        final JsonNode before = status();
        // Sling Event handles no job during its startup delay (JobManagerConfiguration startup.delay, 30 s by
        // default) after the topology is established; the probe answers 504 until then (at most 10 s per attempt).
        HttpResponse<String> response = sling.postForm(JOBS_PROBE, Map.of(), true);
        for (int attempt = 1; response.statusCode() == 504 && attempt < PROBE_ATTEMPTS; attempt++) {
            response = sling.postForm(JOBS_PROBE, Map.of(), true);
        }
        assertThat(response.statusCode()).as("POST %s as admin: %s", JOBS_PROBE, response.body()).isEqualTo(200);
        final JsonNode body = JSON.readTree(response.body());
        for (String job : new String[] {"scheduler", "event"}) {
            assertThat(body.path(job).path("thread").asText()).as("%s job thread in %s", job, body).isNotBlank();
            assertThat(body.path(job).path("virtual").isBoolean()).as("%s.virtual in %s", job, body).isTrue();
            assertThat(body.path(job).path("virtual").asBoolean()).as("%s job on a virtual thread: %s", job, body)
                    .isTrue();
        }
        // The threads belong to our pools: their completed counters moved.
        final long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode after = status();
        while (!(completed(after, "default") > completed(before, "default")
                && completed(after, JOB_POOL_LABEL) > completed(before, JOB_POOL_LABEL))
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
            after = status();
        }
        assertThat(completed(after, "default")).as("completed of 'default': %s then %s", before, after)
                .isGreaterThan(completed(before, "default"));
        assertThat(completed(after, JOB_POOL_LABEL)).as("completed of the job pool: %s then %s", before, after)
                .isGreaterThan(completed(before, JOB_POOL_LABEL));
    }

    private JsonNode status() throws IOException {
        final HttpResponse<String> response = sling.get(STATUS, true);
        assertThat(response.statusCode()).as("GET %s as admin: %s", STATUS, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static long completed(JsonNode pools, String nameOrLabel) {
        final JsonNode pool = nameOrLabel.equals(JOB_POOL_LABEL) ? jobPool(pools) : pools.path(nameOrLabel);
        return pool == null ? -1 : pool.path("completed").asLong(-1);
    }

    /** The anonymous pool Sling Event creates with the label "Apache Sling Job Thread Pool", or null. */
    private static JsonNode jobPool(JsonNode pools) {
        for (Iterator<Map.Entry<String, JsonNode>> it = pools.fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> pool = it.next();
            if (pool.getKey().startsWith("ThreadPool-") && pool.getKey().endsWith(" (" + JOB_POOL_LABEL + ")")) {
                return pool.getValue();
            }
        }
        return null;
    }
}
