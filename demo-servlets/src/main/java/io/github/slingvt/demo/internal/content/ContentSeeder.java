package io.github.slingvt.demo.internal.content;

import io.github.slingvt.demo.internal.http.Json;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigReader;
import org.apache.sling.api.resource.LoginException;
import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.api.resource.ValueMap;
import org.apache.sling.serviceusermapping.ServiceUserMapped;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.slingvt.demo.internal.content.DemoContent.BinarySpec;
import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/**
 * Seeds the demo content on a thread of its own, so that activation (and Sling's start) does not wait for it.
 * Failures, such as a service user that repoinit has not created yet, are retried with a growing pause.
 */
@Component(service = ContentSeeder.class, immediate = true, configurationPid = SeederConfig.PID)
@Designate(ocd = SeederConfig.class)
public final class ContentSeeder {

    private static final Logger LOG = LoggerFactory.getLogger(ContentSeeder.class);

    private static final long FIRST_RETRY_MS = 1_000;
    private static final long MAX_RETRY_MS = 60_000;
    private static final long STOP_WAIT_MS = 30_000;
    private static final int MAX_SIZE = 10_000;
    private static final int MAX_BATCH = 100_000;

    private final ResourceResolverFactory resolverFactory;
    private final TreeShape shape;
    private final int batchSize;
    private final SeedProgress progress;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread worker;

    @Activate
    public ContentSeeder(@Reference ResourceResolverFactory resolverFactory,
            @Reference(target = "(" + ServiceUserMapped.SUBSERVICENAME + "=" + DemoContent.SUBSERVICE_SEEDER + ")")
                    ServiceUserMapped seederUser,
            @Reference ConfigGuard guard, Map<String, Object> properties) {
        this.resolverFactory = resolverFactory;
        Settings config = guard.read(SeederConfig.PID, properties, Settings::read);
        boolean refused = !guard.problems(SeederConfig.PID).isEmpty();
        this.shape = new TreeShape(config.folders(), config.nodesPerFolder());
        this.batchSize = config.batchSize();
        this.progress = new SeedProgress(refused ? SeedProgress.State.REFUSED
                : config.enabled() ? SeedProgress.State.PENDING : SeedProgress.State.DISABLED);
        if (refused) {
            this.worker = null;
            LOG.warn("Demo content seeding is paused until configuration {} is fixed; the content stays as it is",
                    SeederConfig.PID);
        } else if (config.enabled()) {
            // Started last: everything the thread reads is assigned before Thread.start().
            this.worker = Thread.ofPlatform().name("vt-demo-seeder").daemon(true).unstarted(this::run);
            worker.start();
        } else {
            this.worker = null;
            LOG.info("Demo content seeding is disabled ({} enabled=false)", SeederConfig.PID);
        }
    }

    /**
     * Stops the seeder between two saves. The worker is never interrupted: an interrupt during Oak's file I/O
     * closes the segment store's channels.
     */
    @Deactivate
    public void deactivate() {
        stop.countDown();
        if (worker == null) {
            return;
        }
        try {
            worker.join(STOP_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            LOG.warn("The demo content seeder did not stop within {} ms; it stops after its current save",
                    STOP_WAIT_MS);
        }
    }

    boolean stopping() {
        return stop.getCount() == 0;
    }

    SeedProgress progress() {
        return progress;
    }

    TreeShape configuredShape() {
        return shape;
    }

    private void run() {
        long pause = FIRST_RETRY_MS;
        LOG.info("Seeding demo content below {}: {} folders x {} nodes, binaries {}", DemoContent.ROOT,
                shape.folders(), shape.nodesPerFolder(),
                DemoContent.BINARY_SPECS.stream().map(BinarySpec::name).toList());
        while (!stopping()) {
            try (ResourceResolver resolver = resolverFactory.getServiceResourceResolver(
                    Map.of(ResourceResolverFactory.SUBSERVICE, DemoContent.SUBSERVICE_SEEDER))) {
                if (new TreeSeeder(resolver, progress, this::stopping).seed(shape, batchSize)) {
                    LOG.info("Demo content below {} is complete: {} nodes created, {} found, in {} ms",
                            DemoContent.ROOT, progress.created(), progress.found(), progress.seedingMillis());
                } else {
                    progress.state(SeedProgress.State.STOPPED);
                }
                return;
            } catch (LoginException | PersistenceException | RuntimeException e) {
                // RuntimeException too: a dead seeder thread would leave the status "in progress" for ever.
                progress.failed(e);
                LOG.warn("Seeding demo content failed, retrying in {} ms: {}", pause, e.toString());
                LOG.debug("Seeding failure", e);
            }
            if (pause(pause)) {
                progress.state(SeedProgress.State.STOPPED);
                return;
            }
            pause = Math.min(pause * 2, MAX_RETRY_MS);
        }
    }

    /** @return true when the component is stopping */
    private boolean pause(long millis) {
        try {
            return stop.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * The status answer. "seeded" is read from the repository with the caller's resolver, so it is true only when
     * the content is complete and readable by the caller, whether or not this instance's seeder wrote it.
     */
    public Map<String, Object> status(ResourceResolver resolver) {
        TreeShape seeded = TreeShape.readMarker(resolver);
        Map<String, Object> binaries = Json.object();
        boolean allBinaries = true;
        for (BinarySpec spec : DemoContent.BINARY_SPECS) {
            boolean present = resolver.getResource(spec.path() + "/jcr:content") != null;
            binaries.put(spec.name(), present ? spec.size() : null);
            allBinaries &= present;
        }
        Resource root = resolver.getResource(DemoContent.ROOT);
        ValueMap marker = root == null ? ValueMap.EMPTY : root.getValueMap();
        Map<String, Object> json = Json.object(
                "seeded", seeded != null && allBinaries,
                "nodes", seeded == null ? 0L : seeded.nodes(),
                "folders", seeded == null ? 0L : seeded.folders(),
                "nodesPerFolder", seeded == null ? 0L : seeded.nodesPerFolder(),
                "seededAt", marker.get(DemoContent.PN_SEEDED_AT, String.class),
                "binaries", binaries,
                "configured", Json.object("folders", shape.folders(), "nodesPerFolder", shape.nodesPerFolder(),
                        "nodes", shape.nodes()),
                "root", DemoContent.ROOT,
                "scratch", DemoContent.SCRATCH);
        json.putAll(progress.toJson());
        return json;
    }

    /** The validated {@link SeederConfig}. */
    record Settings(boolean enabled, int folders, int nodesPerFolder, int batchSize) {
        static Settings read(ConfigReader r) {
            return new Settings(r.bool("enabled", true), r.integer("folders", 100, 1, MAX_SIZE),
                    r.integer("nodesPerFolder", 100, 1, MAX_SIZE), r.integer("batchSize", 1000, 1, MAX_BATCH));
        }
    }
}
