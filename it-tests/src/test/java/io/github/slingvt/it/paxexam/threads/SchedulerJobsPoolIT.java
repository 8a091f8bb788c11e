package io.github.slingvt.it.paxexam.threads;

import static org.junit.Assert.assertTrue;

import org.apache.sling.commons.scheduler.Scheduler;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;

/** Sling Commons Scheduler jobs run in the scheduler's pool "default", on the kind of thread its mode says. */
@RunWith(PaxExam.class)
public class SchedulerJobsPoolIT extends AbstractThreadPoolsTestSupport {

    private Scheduler scheduler;

    @Before
    public void scheduler() throws Exception {
        scheduler = service(Scheduler.class);
    }

    @Override
    protected void startJob(int index) {
        assertTrue("job " + index + " not scheduled",
                scheduler.schedule((Runnable) () -> record(index), scheduler.NOW().name("slingvt-it-job-" + index)));
    }

    @Test
    public void scheduledJobsFollowTheModeOfTheDefaultPool() throws Exception {
        jobsFollowTheModeOfTheirPool("default");
    }
}
