package io.github.slingvt.it.paxexam;

import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;

import javax.inject.Inject;

import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.CoreOptions;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.OptionUtils;
import org.ops4j.pax.exam.options.MavenArtifactProvisionOption;
import org.ops4j.pax.exam.options.ModifiableCompositeOption;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.ops4j.pax.exam.util.PathUtils;
import org.osgi.framework.BundleContext;

/**
 * Base class for pax-exam integration tests: a Felix framework (forked JVM, same JDK as Maven) with
 * Felix SCR, ConfigAdmin, Felix HTTP Jetty 12 on {@code 127.0.0.1} and a free port, and SLF4J 2.
 * <p>
 * Concrete tests run with {@code @RunWith(PaxExam.class)}; one framework per test class (PerClass, inherited).
 * {@link #config()} is evaluated in the failsafe JVM; the test methods run inside the OSGi framework.
 * Hooks: {@link #additionalOptions()}, {@link #httpConfiguration()}, {@link #httpPort()}.
 * <p>
 * Bundle versions come from {@code bundle-versions.properties} (filtered from {@code it-tests/pom.xml},
 * which declares the same bundles as test dependencies, so that pax-url finds them in the local repository).
 */
@ExamReactorStrategy(PerClass.class)
public abstract class AbstractPaxExamTestSupport {

    /** Framework property Felix HTTP reads for the HTTP port. */
    public static final String HTTP_PORT_PROPERTY = "org.osgi.service.http.port";

    /** Framework property Felix HTTP reads for the address to bind. */
    public static final String HTTP_HOST_PROPERTY = "org.apache.felix.http.host";

    /** Jetty binds the loopback address only. */
    public static final String HTTP_HOST = "127.0.0.1";

    /** How long {@link #waitForHttp(String, int, Duration)} waits by default. */
    protected static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private static final String VERSIONS_RESOURCE = "bundle-versions.properties";
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    private static final long POLL_INTERVAL_MILLIS = 100;

    /** Injected inside the framework; {@code null} in the failsafe JVM while {@link #config()} runs. */
    @Inject
    protected BundleContext bundleContext;

    /** Port chosen in the failsafe JVM; 0 until {@link #httpPort()} first runs there. */
    private int chosenHttpPort;

    private Properties bundleVersions;

    /** The result of one HTTP request. */
    public record HttpResult(int status, String contentType, String body) {
    }

    @Configuration
    public Option[] config() {
        return OptionUtils.combine(baseOptions(), OptionUtils.combine(httpConfiguration(), additionalOptions()));
    }

    /**
     * The framework every test gets: pax-exam's JUnit bundles, logging, SCR, ConfigAdmin and Felix HTTP Jetty 12.
     */
    protected Option[] baseOptions() {
        return new Option[] {
            // A bundle that does not resolve fails the test run instead of leaving a half-started framework.
            systemProperty("pax.exam.osgi.unresolved.fail").value("true"),
            CoreOptions.workingDirectory(workingDirectory()),
            // pax-exam's own pax-logging-api prints OSGi LogService entries (SPI Fly logs each woven class) at DEBUG.
            systemProperty("org.ops4j.pax.logging.DefaultServiceLog.level").value("INFO"),
            junitBundles(),
            slf4j(),
            scr(),
            configAdmin(),
            felixHttpJetty12()
        };
    }

    /**
     * Felix HTTP configuration as framework properties: {@code 127.0.0.1} and {@link #httpPort()}. Override (and
     * combine with {@code super.httpConfiguration()}) to add settings, e.g.
     * {@code org.apache.felix.http.jetty.virtualthreads.enable}.
     */
    protected Option[] httpConfiguration() {
        return new Option[] {
            frameworkProperty(HTTP_HOST_PROPERTY).value(HTTP_HOST),
            frameworkProperty(HTTP_PORT_PROPERTY).value(Integer.toString(httpPort()))
        };
    }

    /** Options a concrete test adds (bundles under test, configurations, VM options). */
    protected Option[] additionalOptions() {
        return new Option[0];
    }

    /**
     * The HTTP port. While {@link #config()} runs (failsafe JVM) this picks a free loopback port once; inside the
     * framework it returns the port the framework was configured with. Override to pin a port.
     */
    protected int httpPort() {
        if (bundleContext != null) {
            final String configured = bundleContext.getProperty(HTTP_PORT_PROPERTY);
            if (configured == null || configured.isBlank()) {
                throw new IllegalStateException("Framework property " + HTTP_PORT_PROPERTY + " is not set");
            }
            return Integer.parseInt(configured.trim());
        }
        if (chosenHttpPort == 0) {
            chosenHttpPort = findFreePort();
        }
        return chosenHttpPort;
    }

    /** A port that was free on 127.0.0.1 a moment ago. */
    public static int findFreePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HTTP_HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port on " + HTTP_HOST, e);
        }
    }

    /** Framework storage and pax-exam files, below {@code target/paxexam/<test class>/<random>}. */
    protected String workingDirectory() {
        return String.format("%s/target/paxexam/%s/%s", PathUtils.getBaseDir(), getClass().getSimpleName(),
            UUID.randomUUID());
    }

    // ---------------------------------------------------------------- bundle sets

    /**
     * SLF4J 2 with slf4j-simple. slf4j-api 2 finds its provider through the OSGi ServiceLoader Mediator, here
     * Aries SPI Fly; all of them start at level 1, before anything logs, so SLF4J does not fall back to NOP.
     */
    protected ModifiableCompositeOption slf4j() {
        return composite(
            bundle("org.apache.aries.spifly", "org.apache.aries.spifly.dynamic.bundle", "aries.spifly").startLevel(1),
            bundle("org.ow2.asm", "asm", "asm").startLevel(1),
            bundle("org.ow2.asm", "asm-commons", "asm").startLevel(1),
            bundle("org.ow2.asm", "asm-tree", "asm").startLevel(1),
            bundle("org.ow2.asm", "asm-analysis", "asm").startLevel(1),
            bundle("org.ow2.asm", "asm-util", "asm").startLevel(1),
            bundle("org.slf4j", "slf4j-api", "slf4j").startLevel(1),
            bundle("org.slf4j", "slf4j-simple", "slf4j").startLevel(1)
        );
    }

    protected ModifiableCompositeOption scr() {
        return composite(
            bundle("org.osgi", "org.osgi.util.function", "osgi.util.function"),
            bundle("org.osgi", "org.osgi.util.promise", "osgi.util.promise"),
            bundle("org.osgi", "org.osgi.service.component", "osgi.service.component"),
            bundle("org.apache.felix", "org.apache.felix.scr", "felix.scr")
        );
    }

    protected ModifiableCompositeOption configAdmin() {
        return composite(bundle("org.apache.felix", "org.apache.felix.configadmin", "felix.configadmin"));
    }

    protected ModifiableCompositeOption felixHttpJetty12() {
        return composite(
            bundle("org.apache.felix", "org.apache.felix.http.servlet-api", "felix.http.servlet-api"),
            bundle("commons-io", "commons-io", "commons-io"),
            bundle("commons-fileupload", "commons-fileupload", "commons-fileupload"),
            bundle("org.apache.felix", "org.apache.felix.http.jetty12", "felix.http.jetty12")
        );
    }

    /** {@code mavenBundle(groupId, artifactId, version)} with the version from {@code bundle-versions.properties}. */
    protected MavenArtifactProvisionOption bundle(String groupId, String artifactId, String versionKey) {
        return mavenBundle(groupId, artifactId, bundleVersion(versionKey));
    }

    protected String bundleVersion(String key) {
        if (bundleVersions == null) {
            final Properties loaded = new Properties();
            try (InputStream in = AbstractPaxExamTestSupport.class.getResourceAsStream(VERSIONS_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(VERSIONS_RESOURCE + " is not on the test classpath;"
                        + " build it-tests with Maven (it is a filtered test resource)");
                }
                loaded.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            bundleVersions = loaded;
        }
        final String version = bundleVersions.getProperty(key);
        if (version == null || version.isBlank() || version.contains("${")) {
            throw new IllegalStateException("No bundle version for '" + key + "' in " + VERSIONS_RESOURCE
                + " (found: " + version + ")");
        }
        return version.trim();
    }

    // ---------------------------------------------------------------- HTTP helpers (inside the framework)

    /** {@code http://127.0.0.1:<port>}. */
    protected String baseUrl() {
        return "http://" + HTTP_HOST + ":" + httpPort();
    }

    /** One GET request against the instance; {@code path} starts with {@code /}. */
    protected HttpResult httpGet(String path) throws IOException {
        final HttpURLConnection connection =
            (HttpURLConnection) URI.create(baseUrl() + path).toURL().openConnection();
        try {
            connection.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
            connection.setReadTimeout(READ_TIMEOUT_MILLIS);
            connection.setInstanceFollowRedirects(false);
            connection.setUseCaches(false);
            final int status = connection.getResponseCode();
            final InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            final String body;
            if (stream == null) {
                body = "";
            } else {
                try (InputStream in = stream) {
                    body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new HttpResult(status, connection.getContentType(), body);
        } finally {
            connection.disconnect();
        }
    }

    /**
     * Polls {@code path} until it answers {@code expectedStatus}, for at most {@code timeout}; connection errors
     * count as "not yet". Fails with the last status or error when the time is up.
     */
    protected HttpResult waitForHttp(String path, int expectedStatus, Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no request made";
        while (true) {
            try {
                final HttpResult result = httpGet(path);
                if (result.status() == expectedStatus) {
                    return result;
                }
                last = "HTTP " + result.status() + ": " + abbreviate(result.body());
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError(String.format("%s%s did not answer HTTP %d within %s; last: %s",
                    baseUrl(), path, expectedStatus, timeout, last));
            }
            Thread.sleep(POLL_INTERVAL_MILLIS);
        }
    }

    /** {@link #waitForHttp(String, int, Duration)} for HTTP 200 and {@link #DEFAULT_WAIT}. */
    protected HttpResult waitForHttpOk(String path) throws InterruptedException {
        return waitForHttp(path, HttpURLConnection.HTTP_OK, DEFAULT_WAIT);
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
