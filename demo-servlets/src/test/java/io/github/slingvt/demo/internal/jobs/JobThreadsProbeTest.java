package io.github.slingvt.demo.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

public class JobThreadsProbeTest {

    private final AtomicReference<JobThreadsProbe> self = new AtomicReference<>();

    /** A "scheduler" that runs the task on a new virtual thread. */
    private static final JobThreadsProbe.Starter VIRTUAL_SCHEDULER = (id, task) -> {
        Thread.ofVirtual().name("fake-scheduler").start(task);
        return true;
    };

    /** A "job manager" whose consumer runs on a new platform thread and reports to the probe. */
    private JobThreadsProbe.Starter platformJobs() {
        return (id, task) -> {
            Thread.ofPlatform().name("fake-job-" + id).daemon(true).start(() -> self.get().jobRan(id));
            return true;
        };
    }

    private JobThreadsProbe probe(JobThreadsProbe.Starter scheduler, JobThreadsProbe.Starter jobs, long timeoutMs) {
        JobThreadsProbe probe = new JobThreadsProbe(scheduler, jobs, Duration.ofMillis(timeoutMs));
        self.set(probe);
        return probe;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> part(JobThreadsProbe.Result result, String key) {
        return (Map<String, Object>) result.body().get(key);
    }

    @Test
    void reportsTheThreadEachJobRanOn() throws Exception {
        JobThreadsProbe.Result result = probe(VIRTUAL_SCHEDULER, platformJobs(), 5_000).run();
        assertThat(result.complete()).isTrue();
        assertThat(part(result, "scheduler")).containsEntry("virtual", true).containsEntry("thread", "fake-scheduler");
        assertThat(part(result, "event")).containsEntry("virtual", false)
                .containsEntry("thread", "fake-job-" + result.body().get("id"));
    }

    @Test
    void aJobThatNeverRunsTimesOut() throws Exception {
        long start = System.nanoTime();
        JobThreadsProbe.Result result = probe(VIRTUAL_SCHEDULER, (id, task) -> true, 200).run();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200))
                .isLessThan(Duration.ofSeconds(5));
        assertThat(result.complete()).isFalse();
        assertThat(part(result, "scheduler")).containsEntry("virtual", true);
        assertThat(part(result, "event")).containsEntry("error", "did not run within 200 ms");
    }

    @Test
    void aJobThatCannotBeStartedIsReported() throws Exception {
        JobThreadsProbe.Result result = probe((id, task) -> false, (id, task) -> {
            throw new IllegalStateException("no job manager");
        }, 1_000).run();
        assertThat(result.complete()).isFalse();
        assertThat(part(result, "scheduler")).containsEntry("error", "could not be started");
        assertThat((String) part(result, "event").get("error")).contains("no job manager");
    }

    @Test
    void unknownOrLateJobsAreIgnored() throws Exception {
        JobThreadsProbe probe = probe(VIRTUAL_SCHEDULER, platformJobs(), 5_000);
        assertThat(probe.jobRan("unknown")).isFalse();
        assertThat(probe.jobRan(null)).isFalse();
        String id = (String) probe.run().body().get("id");
        assertThat(probe.jobRan(id)).isFalse();
    }
}
