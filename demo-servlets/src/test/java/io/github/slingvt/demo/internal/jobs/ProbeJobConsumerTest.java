package io.github.slingvt.demo.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.sling.event.jobs.Job;
import org.apache.sling.event.jobs.consumer.JobConsumer.JobResult;
import org.junit.jupiter.api.Test;

public class ProbeJobConsumerTest {

    /** A Job that only answers getProperty(name, type) from the map. */
    static Job job(Map<String, Object> properties) {
        return (Job) Proxy.newProxyInstance(Job.class.getClassLoader(), new Class<?>[] {Job.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getProperty") && args.length == 2) {
                        return ((Class<?>) args[1]).cast(properties.get((String) args[0]));
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void reportsTheConsumerThreadToTheWaitingProbe() throws Exception {
        AtomicReference<ProbeJobConsumer> consumer = new AtomicReference<>();
        AtomicReference<JobResult> jobResult = new AtomicReference<>();
        AtomicReference<Thread> consumerThread = new AtomicReference<>();
        JobThreadsProbe probe = new JobThreadsProbe((id, task) -> {
            task.run();
            return true;
        }, (id, task) -> {
            consumerThread.set(Thread.ofPlatform().name("consumer-thread").start(() -> jobResult.set(
                    consumer.get().process(job(Map.of(JobThreadsProbe.ID_PROPERTY, id))))));
            return true;
        }, Duration.ofSeconds(5));
        consumer.set(new ProbeJobConsumer(probe));
        JobThreadsProbe.Result result = probe.run();
        assertThat(result.complete()).isTrue();
        assertThat(result.body().get("event")).isEqualTo(Map.of("thread", "consumer-thread", "virtual", false));
        assertThat(consumerThread.get().join(Duration.ofSeconds(5))).isTrue();
        assertThat(jobResult.get()).isEqualTo(JobResult.OK);
    }

    @Test
    void aJobWithoutWaitingProbeIsStillDone() {
        JobThreadsProbe probe = new JobThreadsProbe((id, task) -> true, (id, task) -> true, Duration.ofMillis(1));
        ProbeJobConsumer consumer = new ProbeJobConsumer(probe);
        assertThat(consumer.process(job(Map.of(JobThreadsProbe.ID_PROPERTY, "gone")))).isEqualTo(JobResult.OK);
        assertThat(consumer.process(job(Map.of()))).isEqualTo(JobResult.OK);
    }
}
