package io.github.slingvt.it.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives test classes ONE Sling instance per test JVM, started on first use. Use it with
 * {@code @ExtendWith(SharedSlingInstance.class)} and a {@link SlingInstance} parameter (constructor,
 * {@code @BeforeAll}, {@code @BeforeEach} or test method):
 * <pre>{@code
 * @ExtendWith(SharedSlingInstance.class)
 * class MyE2EIT {
 *     private final SlingInstance sling;
 *     MyE2EIT(SlingInstance sling) { this.sling = sling; }
 * }
 * }</pre>
 * The instance is stopped when the JUnit Jupiter run ends (a resource in the root extension store), and by its JVM
 * shutdown hook in any case. Do not stop it in a test, and do not change its global state in ways other test classes
 * would notice; a test that needs a differently configured instance starts its own with
 * {@link SlingInstance#builder(String)}. If the shared instance fails to start, every later request for it fails at
 * once with the same cause instead of waiting for another startup.
 */
public final class SharedSlingInstance implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SharedSlingInstance.class);
    private static final Object LOCK = new Object();
    private static SlingInstance instance;
    private static RuntimeException startFailure;

    /**
     * The shared instance, started on the first call. Outside JUnit Jupiter (no extension) only the shutdown hook
     * stops it.
     */
    public static SlingInstance get() {
        synchronized (LOCK) {
            if (startFailure != null) {
                throw new IllegalStateException("The shared Sling instance failed to start earlier", startFailure);
            }
            if (instance == null) {
                try {
                    instance = SlingInstance.builder("shared").start();
                } catch (RuntimeException e) {
                    startFailure = e;
                    throw e;
                }
            }
            return instance;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == SlingInstance.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        final SlingInstance sling = get();
        extensionContext.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(StopAtEndOfRun.class, key -> new StopAtEndOfRun(), StopAtEndOfRun.class);
        return sling;
    }

    /** Closed by JUnit Jupiter when the root extension context closes, that is after the last test class. */
    private static final class StopAtEndOfRun implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            synchronized (LOCK) {
                if (instance != null) {
                    instance.stop();
                    instance = null;
                }
            }
            BackgroundStops.awaitAll(); // the run ends: a stop still pending fails it here, not unseen in a hook
        }
    }
}
