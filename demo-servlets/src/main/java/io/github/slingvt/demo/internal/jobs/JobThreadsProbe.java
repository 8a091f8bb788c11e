package io.github.slingvt.demo.internal.jobs;

import io.github.slingvt.demo.internal.http.Json;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts one Sling Scheduler job and one Sling Event job and reports the thread each of them ran on, so that a
 * client can see whether Sling's background pools run on virtual threads. Not tied to OSGi: the scheduler and the
 * job manager are reached through {@link Starter}s, and the job consumer reports back through {@link #jobRan}.
 */
public final class JobThreadsProbe {

    /** The Sling Event topic of the probe's jobs; {@link ProbeJobConsumer} consumes it. */
    static final String TOPIC = "io/github/slingvt/demo/jobprobe";

    /** The job property that carries the probe id. */
    static final String ID_PROPERTY = "probeId";

    /** Starts a task (scheduler) or a job (event) for one probe id; false if it could not be started. */
    @FunctionalInterface
    interface Starter {
        boolean start(String id, Runnable task) throws Exception;
    }

    /** The result of one probe: the JSON body and whether both jobs ran in time. */
    record Result(boolean complete, Map<String, Object> body) {
    }

    private final Starter scheduler;
    private final Starter jobs;
    private final Duration timeout;
    private final Map<String, CompletableFuture<Map<String, Object>>> pendingJobs = new ConcurrentHashMap<>();

    JobThreadsProbe(Starter scheduler, Starter jobs, Duration timeout) {
        this.scheduler = scheduler;
        this.jobs = jobs;
        this.timeout = timeout;
    }

    /** Starts both jobs and waits (at most the timeout, for both together) until they have run. */
    Result run() throws InterruptedException {
        String id = UUID.randomUUID().toString();
        CompletableFuture<Map<String, Object>> scheduled = new CompletableFuture<>();
        CompletableFuture<Map<String, Object>> job = new CompletableFuture<>();
        pendingJobs.put(id, job);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            Map<String, Object> schedulerResult =
                    startAndAwait(scheduler, id, () -> scheduled.complete(observe()), scheduled, deadline);
            Map<String, Object> jobResult = startAndAwait(jobs, id, () -> { }, job, deadline);
            boolean complete = !schedulerResult.containsKey("error") && !jobResult.containsKey("error");
            return new Result(complete, Json.object("id", id, "timeoutMs", timeout.toMillis(),
                    "scheduler", schedulerResult, "event", jobResult));
        } finally {
            pendingJobs.remove(id);
        }
    }

    /** Called by the job consumer on the thread that processes the job; false if no probe waits for this id. */
    boolean jobRan(String id) {
        CompletableFuture<Map<String, Object>> pending = id == null ? null : pendingJobs.get(id);
        return pending != null && pending.complete(observe());
    }

    private Map<String, Object> startAndAwait(Starter starter, String id, Runnable task,
            CompletableFuture<Map<String, Object>> result, long deadline) throws InterruptedException {
        try {
            if (!starter.start(id, task)) {
                return Json.object("error", "could not be started");
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return Json.object("error", "could not be started: " + e);
        }
        try {
            return result.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Json.object("error", "did not run within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            return Json.object("error", String.valueOf(e.getCause()));
        }
    }

    /** The calling thread: its name and whether it is virtual. */
    static Map<String, Object> observe() {
        Thread t = Thread.currentThread();
        return Json.object("thread", t.getName(), "virtual", t.isVirtual());
    }
}
