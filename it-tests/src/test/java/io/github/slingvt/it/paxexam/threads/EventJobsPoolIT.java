package io.github.slingvt.it.paxexam.threads;

import static org.junit.Assert.assertNotNull;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;

import org.apache.sling.event.jobs.JobManager;
import org.apache.sling.event.jobs.consumer.JobConsumer;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.osgi.framework.ServiceRegistration;

/**
 * Sling Event jobs (persisted below /var/eventing in Oak, main queue) are processed in Sling Event's anonymous pool
 * labelled "Apache Sling Job Thread Pool", on the kind of thread its mode says.
 */
@RunWith(PaxExam.class)
public class EventJobsPoolIT extends AbstractThreadPoolsTestSupport {

    static final String TOPIC = "io/github/slingvt/it/threads";
    static final String JOB_POOL_LABEL = "Apache Sling Job Thread Pool";

    private JobManager jobManager;
    private ServiceRegistration<JobConsumer> consumer;

    @Before
    public void jobManagerAndConsumer() throws Exception {
        jobManager = service(JobManager.class);
        final Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(JobConsumer.PROPERTY_TOPICS, TOPIC);
        consumer = bundleContext.registerService(JobConsumer.class, job -> {
            record(((Number) job.getProperty("index")).intValue());
            return JobConsumer.JobResult.OK;
        }, properties);
    }

    @After
    public void unregisterConsumer() {
        if (consumer != null) {
            consumer.unregister();
        }
    }

    /**
     * Sling Event handles no job until its startup delay (default 30 s, read only at activation) has passed after the
     * topology is established: 1 s here, so that the test waits for jobs, not for the delay.
     */
    @Override
    protected Map<String, Dictionary<String, Object>> additionalConfigurations() {
        return Map.of("org.apache.sling.event.impl.jobs.jcr.PersistenceHandler",
                new Hashtable<>(Map.of("startup.delay", 1L)));
    }

    @Override
    protected void startJob(int index) {
        assertNotNull("job " + index + " not added", jobManager.addJob(TOPIC, Map.of("index", index)));
    }

    @Test
    public void eventJobsFollowTheModeOfTheJobPool() throws Exception {
        jobsFollowTheModeOfTheirPool(JOB_POOL_LABEL);
    }
}
