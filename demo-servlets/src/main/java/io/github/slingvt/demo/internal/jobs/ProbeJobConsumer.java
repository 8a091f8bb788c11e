package io.github.slingvt.demo.internal.jobs;

import org.apache.sling.event.jobs.Job;
import org.apache.sling.event.jobs.consumer.JobConsumer;

/** Consumes the probe's Sling Event jobs ({@value JobThreadsProbe#TOPIC}) and tells the probe which thread ran them. */
public final class ProbeJobConsumer implements JobConsumer {

    private final JobThreadsProbe probe;

    ProbeJobConsumer(JobThreadsProbe probe) {
        this.probe = probe;
    }

    /** Always OK: a job whose probe has already given up is done as well, it must not be retried. */
    @Override
    public JobResult process(Job job) {
        probe.jobRan(job.getProperty(JobThreadsProbe.ID_PROPERTY, String.class));
        return JobResult.OK;
    }
}
