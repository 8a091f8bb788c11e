package io.github.slingvt.observability.internal.repository;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

import org.apache.felix.hc.api.HealthCheck;
import org.apache.felix.hc.api.Result;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.ServiceRegistration;

import jakarta.servlet.Servlet;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says why a node on Oak's DocumentNodeStore serves no content after it lost its cluster lease. Oak stops its
 * document store bundle by design when a node could not renew its lease in the database in time (the database was
 * unreachable for longer than the lease, 120 s by default), so that a node that may have been declared dead by the
 * others never writes again; it does not come back by itself. Sling's own readiness then only lists missing services.
 * <p>
 * This check (tags {@code systemready} and {@code slingvt}: readiness, so a load balancer takes the node out) is
 * CRITICAL from the moment the bundle stops while the framework runs until it is started again, and names the remedy;
 * the stop is also logged as an error, and meanwhile requests that no servlet takes are answered 503 with
 * {@code Retry-After} ({@link StoreStoppedServlet}) instead of 404. On segment-tar (no such bundle) it is always OK.
 */
@Component(service = HealthCheck.class, immediate = true, property = {
        HealthCheck.NAME + "=" + DocumentStoreCheck.NAME, HealthCheck.TAGS + "=systemready",
        HealthCheck.TAGS + "=slingvt"})
public final class DocumentStoreCheck implements HealthCheck {

    static final String NAME = "Oak document store";
    /** The bundle Oak's lease failure handler stops ({@code DocumentNodeStoreService}). */
    static final String BUNDLE = "org.apache.jackrabbit.oak-store-document";

    private static final Logger LOG = LoggerFactory.getLogger(DocumentStoreCheck.class);
    private static final String REMEDY = "the database answers again and the instance is restarted (or the bundle "
            + BUNDLE + " is started again in the web console).";

    private final BundleContext context;
    private final Clock clock;
    private final BundleListener listener = this::bundleChanged;
    /** When the store stopped while the framework ran; {@code null} while it runs (or never ran). */
    private volatile Instant stoppedAt;
    /** The {@link StoreStoppedServlet} while the store is stopped. */
    private ServiceRegistration<Servlet> answer;

    @Activate
    public DocumentStoreCheck(BundleContext context) {
        this(context, Clock.systemUTC());
    }

    DocumentStoreCheck(BundleContext context, Clock clock) {
        this.context = context;
        this.clock = clock;
        Bundle store = store();
        if (store != null && store.getState() == Bundle.RESOLVED && frameworkRunning()) {
            // Stopped before this component (re)started: the check must not forget it (the time is when it was seen).
            stopped(clock.instant());
        }
        context.addBundleListener(listener);
    }

    @Deactivate
    synchronized void deactivate() {
        context.removeBundleListener(listener);
        withdrawAnswer();
    }

    /** Asynchronous (Felix's event thread): registering a service from inside the stop of another bundle is not. */
    private synchronized void bundleChanged(BundleEvent event) {
        if (!BUNDLE.equals(event.getBundle().getSymbolicName())) {
            return;
        }
        if (event.getType() == BundleEvent.STOPPED && frameworkRunning()) {
            LOG.error("Oak's document store ({}) stopped while Sling runs: Oak does that when this node could not "
                    + "renew its cluster lease in the database in time. This node answers 503 and its readiness is "
                    + "false until {}", BUNDLE, REMEDY);
            stopped(clock.instant());
        } else if (event.getType() == BundleEvent.STARTED) {
            stoppedAt = null;
            withdrawAnswer();
        }
    }

    private void stopped(Instant when) {
        stoppedAt = when;
        if (answer == null) {
            answer = context.registerService(Servlet.class, new StoreStoppedServlet("Oak's document store stopped "
                    + "(see the health check '" + NAME + "' at /system/health)."), StoreStoppedServlet.properties());
        }
    }

    private void withdrawAnswer() {
        if (answer != null) {
            try {
                answer.unregister();
            } catch (IllegalStateException alreadyGone) {
                // The bundle is stopping: the framework unregisters it anyway.
            }
            answer = null;
        }
    }

    @Override
    public Result execute() {
        Bundle store = store();
        if (store == null) {
            return new Result(Result.Status.OK, "No Oak document store on this instance (segment store)");
        }
        Instant stopped = stoppedAt;
        if (stopped != null && store.getState() != Bundle.ACTIVE) {
            return new Result(Result.Status.CRITICAL, "Oak's document store (" + BUNDLE + ") stopped (at or before " + stopped + ")"
                    + " while Sling ran: Oak stops it when this node cannot renew its cluster lease in the database in "
                    + "time (database unreachable for longer than the lease). No content is served until " + REMEDY);
        }
        if (store.getState() != Bundle.ACTIVE) {
            return new Result(Result.Status.TEMPORARILY_UNAVAILABLE, "Oak's document store has not started yet");
        }
        return new Result(Result.Status.OK, "Oak's document store runs");
    }

    private Bundle store() {
        return Arrays.stream(context.getBundles()).filter(b -> BUNDLE.equals(b.getSymbolicName())).findFirst()
                .orElse(null);
    }

    /** Not while the framework starts or stops: every bundle stops then, and that is no lease failure. */
    private boolean frameworkRunning() {
        Bundle system = context.getBundle(0);
        return system != null && system.getState() == Bundle.ACTIVE;
    }
}
