package io.github.slingvt.it.paxexam.threads;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import javax.inject.Inject;

import org.ops4j.pax.exam.CoreOptions;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.util.tracker.ServiceTracker;

import io.github.slingvt.it.paxexam.AbstractPaxExamTestSupport;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;

/**
 * The assembled Sling VT feature in pax-exam ({@link FeatureProvisioning}: Felix, Oak segment-tar, Sling, Scheduler,
 * Event, commons-threads-virtual as the ThreadPoolManager, Jetty on 127.0.0.1 and a free port), without the demo
 * bundle, plus helpers to switch a pool's mode through Config Admin and to read it back from the pool bundle's
 * {@link ThreadPools} service. Subclasses record which thread their jobs ran on ({@link #record}).
 */
public abstract class AbstractThreadPoolsTestSupport extends AbstractPaxExamTestSupport {

    static final String PID = "io.github.slingvt.threads.VirtualThreadPools";
    static final Duration WAIT = Duration.ofSeconds(60);
    /** Sling installer's ConfigurationConstants.PROPERTY_PERSISTENCE: false keeps a configuration out of write-back. */
    static final String INSTALLER_PERSIST = "org.apache.sling.installer.configuration.persist";

    /** One run of job {@code index} on a thread, {@code atMs} after the test began. */
    record Run(int index, String thread, boolean virtual, long atMs) {
    }

    @Inject
    protected ConfigurationAdmin configurationAdmin;

    /** Every run of every job, by job index; a job that ran twice has two entries. */
    protected final Map<Integer, List<Run>> runs = new ConcurrentHashMap<>();

    private String workingDirectory;

    /** When the test began; {@link #events} and {@link Run#atMs} count from here. */
    private final long startNanos = System.nanoTime();

    /** What the test did when, so that a failure shows the order of switches, submissions and runs. */
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    protected String workingDirectory() {
        if (workingDirectory == null) {
            workingDirectory = super.workingDirectory();
        }
        return workingDirectory;
    }

    /** No slf4j-simple, SCR, Config Admin or Jetty of the base class: the feature brings its own. */
    @Override
    protected Option[] baseOptions() {
        final String featureDir = System.getProperty("slingvt.feature.dir");
        if (featureDir == null || !Files.isDirectory(Path.of(featureDir, "artifacts"))) {
            throw new IllegalStateException("System property slingvt.feature.dir must name feature-model/target"
                    + " with the assembled feature, got " + featureDir);
        }
        final Path home = Path.of(workingDirectory(), "sling");
        final FeatureProvisioning feature = new FeatureProvisioning(Path.of(featureDir), Map.of(
                "sling.home", home.toString(), "http.host", HTTP_HOST, "http.port", Integer.toString(httpPort())),
                // the demo bundle seeds 10,000 nodes in the background: not what these tests measure
                Set.of("demo-servlets"), additionalConfigurations());
        final List<Option> options = new ArrayList<>(List.of(
                systemProperty("pax.exam.osgi.unresolved.fail").value("true"),
                CoreOptions.workingDirectory(workingDirectory()),
                systemProperty("org.ops4j.pax.logging.DefaultServiceLog.level").value("INFO"),
                // Logback as ./sling-vt run configures it: <sling.home>/logs/error.log
                systemProperty("sling.home").value(home.toString()),
                systemProperty("logback.configurationFile").value(Path.of(featureDir, "conf", "logback.xml").toString()),
                frameworkStartLevel(feature.maxStartLevel()),
                junitBundles()));
        options.addAll(feature.options(home));
        return options.toArray(Option[]::new);
    }

    /** Configurations put into Config Admin with the feature's (same PID: replaces it). None by default. */
    protected Map<String, Dictionary<String, Object>> additionalConfigurations() {
        return Map.of();
    }

    // ---------------------------------------------------------------- inside the framework

    /** Starts job {@code index}, whose body calls {@link #record(int)} with it. */
    protected abstract void startJob(int index) throws Exception;

    /**
     * Jobs of pool {@code pool} (a name, or the label of an anonymous pool) run on virtual threads, then on kernel
     * threads once the pool is switched to kernel through Config Admin, then on virtual threads again after switching
     * back; 20 jobs started while the switch happens run too; each of the 50 jobs runs exactly once.
     */
    protected void jobsFollowTheModeOfTheirPool(String pool) throws Exception {
        setPoolModes();
        startJobs(0, 10);
        awaitRuns(0, 10);
        assertRanOnce(0, 10, true);
        assertEquals("virtual", poolMode(pool));

        final List<Throwable> submitFailures = new CopyOnWriteArrayList<>();
        final Thread submitter = Thread.ofPlatform().name("it-submitter").start(() -> {
            try {
                event("submitter starts jobs 10..29, 5 ms apart");
                for (int i = 10; i < 30; i++) {
                    startJob(i);
                    Thread.sleep(5);
                }
            } catch (Throwable e) {
                submitFailures.add(e);
            }
        });
        setPoolModes(pool + "=kernel");
        awaitPoolMode(pool, "kernel");
        event("pool seen in kernel mode: " + pools());
        assertTrue("submitter did not finish", submitter.join(WAIT));
        assertEquals(List.of(), submitFailures);
        startJobs(30, 40);
        awaitRuns(10, 40);
        assertRanOnce(10, 30, null);
        assertRanOnce(30, 40, false);

        setPoolModes();
        awaitPoolMode(pool, "virtual");
        event("pool seen in virtual mode again");
        startJobs(40, 50);
        awaitRuns(40, 50);
        assertRanOnce(40, 50, true);

        Thread.sleep(500); // a job that would run twice has had the time to
        assertEquals("jobs that ran: " + runs.keySet(), 50, runs.size());
        assertRanOnce(0, 50, null);
        System.out.printf("%s: pool '%s'; threads of jobs 0, 30, 40: %s, %s, %s; during the switch: %d virtual,"
                + " %d kernel%n  status: %s%n", getClass().getSimpleName(), pool, runs.get(0), runs.get(30),
                runs.get(40), runs.entrySet().stream().filter(e -> e.getKey() >= 10 && e.getKey() < 30)
                        .filter(e -> e.getValue().get(0).virtual()).count(),
                runs.entrySet().stream().filter(e -> e.getKey() >= 10 && e.getKey() < 30)
                        .filter(e -> !e.getValue().get(0).virtual()).count(), pools());
    }

    private void startJobs(int from, int to) throws Exception {
        event("starting jobs " + from + ".." + (to - 1));
        for (int i = from; i < to; i++) {
            startJob(i);
        }
    }

    private long sinceStartMs() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private void event(String what) {
        events.add(sinceStartMs() + " ms: " + what);
    }

    /** Everything a failed assertion needs to be understood without a rerun: events, runs, pools. */
    private String history() {
        final StringBuilder sb = new StringBuilder("\n  events:");
        events.forEach(e -> sb.append("\n    ").append(e));
        sb.append("\n  runs:");
        runs.values().stream().flatMap(List::stream).sorted(Comparator.comparingLong(Run::atMs))
                .forEach(r -> sb.append("\n    ").append(r));
        sb.append("\n  pools now: ").append(pools());
        sb.append("\n  log lines on pools and job queues:");
        final Path log = Path.of(System.getProperty("sling.home"), "logs", "error.log");
        try (Stream<String> lines = Files.lines(log)) {
            lines.filter(l -> l.contains("io.github.slingvt.threads") || l.contains("JobQueueImpl")
                    || l.contains("ConfigGuard")).forEach(l -> sb.append("\n    ").append(l));
        } catch (IOException | RuntimeException e) {
            sb.append(" not readable from ").append(log).append(": ").append(e);
        }
        return sb.toString();
    }

    /** The service, waiting for it at most {@link #WAIT}. */
    protected <T> T service(Class<T> type) throws InterruptedException {
        final ServiceTracker<T, T> tracker = new ServiceTracker<>(bundleContext, type, null);
        tracker.open();
        final T service = tracker.waitForService(WAIT.toMillis());
        assertNotNull(type.getName() + " not available within " + WAIT, service);
        return service;
    }

    /** A job body: records the run of job {@code index} on the current thread. */
    protected void record(int index) {
        final Thread t = Thread.currentThread();
        runs.computeIfAbsent(index, i -> new CopyOnWriteArrayList<>())
                .add(new Run(index, t.getName(), t.isVirtual(), sinceStartMs()));
    }

    /** Replaces the pool modes: {@code defaultMode} virtual, and the given {@code name=mode} overrides. */
    protected void setPoolModes(String... poolModes) throws Exception {
        event("pool modes set to defaultMode=virtual, poolModes=" + List.of(poolModes));
        final Configuration configuration = configurationAdmin.getConfiguration(PID, null);
        final Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("defaultMode", "virtual");
        properties.put("poolModes", poolModes);
        // Not written back into the install folder: the file installer would install that file again later, and
        // with two changes a second apart it installed the first after the second, switching the pool back
        // (docs/UPSTREAM.md, Sling installer write-back, symptom 3).
        properties.put(INSTALLER_PERSIST, false);
        configuration.update(properties);
    }

    /** The pools in use as the pool bundle's own API ({@link ThreadPools}) reports them. */
    protected List<ThreadPoolSnapshot> pools() {
        final ServiceReference<ThreadPools> reference = bundleContext.getServiceReference(ThreadPools.class);
        if (reference == null) {
            throw new AssertionError("no " + ThreadPools.class.getName() + " service");
        }
        try {
            return bundleContext.getService(reference).pools();
        } finally {
            bundleContext.ungetService(reference);
        }
    }

    /**
     * The mode of the pool named {@code name}, or of the anonymous pool labelled {@code name} (pool name
     * {@code ThreadPool-<uuid> (<label>)}); null if no such pool is in use.
     */
    protected String poolMode(String name) {
        return pools().stream()
                .filter(p -> p.name().equals(name) || p.name().startsWith("ThreadPool-") && p.name().endsWith(" (" + name + ")"))
                .map(p -> p.mode().label()).findFirst().orElse(null);
    }

    protected void awaitPoolMode(String name, String mode) throws Exception {
        awaitTrue("pool '" + name + "' in mode " + mode, () -> {
            try {
                return mode.equals(poolMode(name));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Waits until jobs {@code from} to {@code to - 1} have run. */
    protected void awaitRuns(int from, int to) throws InterruptedException {
        awaitTrue("jobs " + from + ".." + (to - 1) + " ran", () -> {
            for (int i = from; i < to; i++) {
                if (!runs.containsKey(i)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** Asserts that every job {@code from..to-1} ran exactly once, on a virtual thread if {@code virtual}. */
    protected void assertRanOnce(int from, int to, Boolean virtual) {
        for (int i = from; i < to; i++) {
            final List<Run> ofJob = runs.get(i);
            final String problem = ofJob == null ? "job " + i + " did not run"
                    : ofJob.size() != 1 ? "job " + i + " ran " + ofJob.size() + " times: " + ofJob
                    : virtual != null && ofJob.get(0).virtual() != virtual
                            ? "job " + i + " ran on " + ofJob.get(0).thread() + ", expected a "
                                    + (virtual ? "virtual" : "kernel") + " thread"
                    : null;
            if (problem != null) {
                throw new AssertionError(problem + history());
            }
        }
    }

    protected static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(what + ": not within " + WAIT, System.nanoTime() < deadline);
            Thread.sleep(20);
        }
    }
}
