package io.github.slingvt.observability.internal.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.felix.hc.api.Result;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.ServiceRegistration;

/**
 * The document store check: CRITICAL with the remedy, and the 503 answer registered, from Oak's stop of its store bundle
 * while the framework runs until the bundle starts again; not for the stops of a framework shutdown; OK without the
 * bundle.
 */
class DocumentStoreCheckTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-25T21:00:00Z"), ZoneOffset.UTC);

    private final AtomicInteger framework = new AtomicInteger(Bundle.ACTIVE);
    private final AtomicInteger store = new AtomicInteger(Bundle.ACTIVE);
    private final List<BundleListener> listeners = new ArrayList<>();
    private final List<Object> servlets = new ArrayList<>();
    private final Bundle system = bundle("org.apache.felix.framework", framework);
    private final Bundle storeBundle = bundle(DocumentStoreCheck.BUNDLE, store);

    @Test
    void aStopWhileTheFrameworkRunsIsCriticalUntilTheStoreStartsAgain() {
        DocumentStoreCheck check = new DocumentStoreCheck(context(true), CLOCK);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.OK);

        store(BundleEvent.STOPPING, Bundle.STOPPING);
        store(BundleEvent.STOPPED, Bundle.RESOLVED);
        assertThat(servlets).as("the 503 answer while the store is stopped").hasSize(1);
        Result stopped = check.execute();
        assertThat(stopped.getStatus()).isEqualTo(Result.Status.CRITICAL);
        assertThat(stopped.iterator().next().getMessage()).contains("2026-11-25T21:00:00Z")
                .contains("cluster lease").contains("restarted").contains(DocumentStoreCheck.BUNDLE);

        store(BundleEvent.STARTED, Bundle.ACTIVE);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.OK);
        assertThat(servlets).as("withdrawn once it runs again").isEmpty();
        check.deactivate();
        assertThat(listeners).isEmpty();
    }

    @Test
    void theStopsOfAShutdownAreNoFailure() {
        DocumentStoreCheck check = new DocumentStoreCheck(context(true), CLOCK);
        framework.set(Bundle.STOPPING);
        store(BundleEvent.STOPPING, Bundle.STOPPING);
        store(BundleEvent.STOPPED, Bundle.RESOLVED);
        assertThat(check.execute().getStatus()).isEqualTo(Result.Status.TEMPORARILY_UNAVAILABLE);
        assertThat(servlets).isEmpty();
    }

    @Test
    void aStoreFoundStoppedAtActivationIsCritical() {
        store.set(Bundle.RESOLVED);
        assertThat(new DocumentStoreCheck(context(true), CLOCK).execute().getStatus())
                .isEqualTo(Result.Status.CRITICAL);
    }

    @Test
    void withoutADocumentStoreItIsOk() {
        Result result = new DocumentStoreCheck(context(false), CLOCK).execute();
        assertThat(result.getStatus()).isEqualTo(Result.Status.OK);
        assertThat(result.iterator().next().getMessage()).contains("segment");
    }

    private void store(int type, int state) {
        store.set(state);
        BundleEvent event = new BundleEvent(type, storeBundle);
        List.copyOf(listeners).forEach(l -> l.bundleChanged(event));
    }

    private BundleContext context(boolean withStore) {
        Bundle[] bundles = withStore ? new Bundle[] {system, storeBundle} : new Bundle[] {system};
        return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getBundles" -> bundles;
                    case "getBundle" -> args != null && args.length == 1 && ((Long) args[0]) == 0L ? system : null;
                    case "addBundleListener" -> listeners.add((BundleListener) args[0]);
                    case "removeBundleListener" -> listeners.remove(args[0]);
                    case "registerService" -> registration(args[1]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private ServiceRegistration<?> registration(Object servlet) {
        assertThat(servlet).isInstanceOf(StoreStoppedServlet.class);
        servlets.add(servlet);
        return (ServiceRegistration<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ServiceRegistration.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "unregister" -> servlets.remove(servlet);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Bundle bundle(String symbolicName, AtomicInteger state) {
        return (Bundle) Proxy.newProxyInstance(DocumentStoreCheckTest.class.getClassLoader(),
                new Class<?>[] {Bundle.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> symbolicName;
                    case "getState" -> state.get();
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
