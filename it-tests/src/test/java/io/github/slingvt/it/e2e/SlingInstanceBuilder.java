package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Launches a {@link SlingInstance} from the assembled feature exactly as {@code ./sling-vt run} does (cmd_run):
 * {@code JAVA_OPTS="-Dsling.home=HOME -Dlogback.configurationFile=FEATURE_DIR/conf/logback.xml"}, launcher arguments
 * {@code -f FEATURE -u file://FEATURE_DIR/artifacts -p HOME/launcher -c HOME/cache -V sling.home=HOME
 * -V http.port=PORT -V http.host=127.0.0.1}, working directory HOME, stdout and stderr to {@code HOME/logs/stdout.log}.
 * The JDK is {@link #javaHome()}: the one running the tests, or the one the system property
 * {@value #JAVA_HOME_PROPERTY} names (the JDK 21 run of {@code ./sling-vt test}); {@link #jvmOption(String)}
 * adds to {@code JAVA_OPTS}.
 */
public final class SlingInstanceBuilder {

    /** System property (set by failsafe) naming {@code feature-model/target}. */
    public static final String FEATURE_DIR_PROPERTY = "slingvt.feature.dir";
    /** System property (set by failsafe for the JDK 21 run) naming the JDK the instances run on. */
    public static final String JAVA_HOME_PROPERTY = "slingvt.instance.java.home";
    /** System property (set by failsafe) naming the folder for the instance homes. */
    public static final String E2E_DIR_PROPERTY = "slingvt.e2e.dir";

    /** The JVM option of {@link #functionalChecksOnly()}, for instances that {@code ./sling-vt} starts. */
    static final String FUNCTIONAL_CHECKS_ONLY = "-XX:TieredStopAtLevel=1";
    static final int SMALL_TREE_FOLDERS = 10;
    static final int SMALL_TREE_NODES_PER_FOLDER = 100;
    private static final String SEEDER_PID = "io.github.slingvt.demo.ContentSeeder";

    private static final Logger LOG = LoggerFactory.getLogger(SlingInstanceBuilder.class);
    private static final String LAUNCHER = "launcher/org.apache.sling.feature.launcher-1.3.4/bin/launcher";
    /** {@code ./sling-vt run --feature starter}, the default: the lean feature plus the Sling Starter's stack. */
    private static final String FEATURE_STARTER = "slingfeature-tmp/feature-sling-vt-starter.json";
    /** {@code ./sling-vt run --feature lean}. */
    private static final String FEATURE_LEAN = "slingfeature-tmp/feature-sling-vt.json";
    private static final String FEATURE_POSTGRES = "slingfeature-tmp/feature-sling-vt-postgres.json";
    /** The starter stack with Sling's own thread pools and none of Sling VT's bundles: an existing Sling. */
    private static final String FEATURE_STOCK = "slingfeature-tmp/feature-sling-stock.json";

    private final String name;
    private final Map<String, String> frameworkProperties = new LinkedHashMap<>();
    private final List<Path> installFiles = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private Path home;
    private String jdbcUrl;
    private Path passwordFile;
    private String featureFile = FEATURE_STARTER;
    private Path featureArchive;
    private final Map<String, String> variables = new LinkedHashMap<>();
    private boolean smallDemoTree;

    SlingInstanceBuilder(String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("Instance name must be usable as a folder name: " + name);
        }
        this.name = name;
    }

    /** A framework property for the launcher ({@code -D key=value}); it overrides the value of the feature. */
    public SlingInstanceBuilder frameworkProperty(String key, String value) {
        frameworkProperties.put(key, value);
        return this;
    }

    /**
     * For an instance that only answers functional checks (no load whose speed or timing a test asserts): the JIT's
     * first tier only ({@code -XX:TieredStopAtLevel=1}), so that on 2 cores no optimizing compiler competes with
     * the start; ConfigFuzzE2EIT with its eleven starts ran in 166 s instead of 222 s. Compiled code is slower, so
     * never for a test whose outcome depends on how fast requests are served (throughput, latency, what a load
     * reaches in a given time).
     */
    public SlingInstanceBuilder functionalChecksOnly() {
        return jvmOption(FUNCTIONAL_CHECKS_ONLY);
    }

    /**
     * For an instance whose test reads a few demo nodes but does not depend on how many there are: a demo tree of
     * {@value #SMALL_TREE_FOLDERS} x {@value #SMALL_TREE_NODES_PER_FOLDER} nodes instead of the seeder's default of
     * 10,000, through a {@code io.github.slingvt.demo.ContentSeeder} configuration in the install folder of a new home.
     * Seeding 10,000 nodes takes 7-12 s of a start on 2 cores (about 29 s on PostgreSQL); the instances that check the
     * default tree (the shared one) or cold repository reads (PostgreSQL store) keep it. Not for an instance whose test
     * writes the seeder's configuration itself (ConfigFuzzE2EIT): the installer would own that configuration too.
     */
    public SlingInstanceBuilder smallDemoTree() {
        smallDemoTree = true;
        return this;
    }

    /** A JVM option of the instance ({@code -Xmx512m}), appended to {@code JAVA_OPTS}; no whitespace inside. */
    public SlingInstanceBuilder jvmOption(String option) {
        if (option.isBlank() || option.matches(".*\\s.*")) {
            // The launcher script expands JAVA_OPTS without quotes.
            throw new IllegalArgumentException("A JVM option without whitespace, please: '" + option + "'");
        }
        jvmOptions.add(option);
        return this;
    }

    /**
     * A file to copy into the Sling file installer folder ({@link SlingInstance#installDir()}) before the launch,
     * for example a bundle or an OSGi configuration ({@code PID.cfg.json}).
     */
    public SlingInstanceBuilder installFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("Not a file: " + file);
        }
        installFiles.add(file);
        return this;
    }

    /**
     * Starts on an existing home (repository, configurations, logs) instead of a new one: a restart of an instance
     * that was {@link SlingInstance#stop() stopped}, as {@code ./sling-vt run} twice on one home does. The port is new.
     */
    public SlingInstanceBuilder home(Path existing) {
        if (!Files.isDirectory(existing.resolve("launcher"))) {
            throw new IllegalArgumentException("Not the home of a stopped instance: " + existing);
        }
        this.home = existing;
        return this;
    }

    /**
     * Runs the {@code sling-vt-postgres} feature (Oak's DocumentNodeStore) on the database at {@code jdbcUrl}, as
     * {@code ./sling-vt run --store postgres} does: {@code -V oak.jdbc.url=...}, and the password of the role oak
     * copied from {@code passwordFile} into {@code HOME/launcher/secrets/oak-db-password} (0600), where the feature's data
     * source reads it.
     */
    public SlingInstanceBuilder postgres(String jdbcUrl, Path passwordFile) {
        this.jdbcUrl = jdbcUrl;
        this.passwordFile = passwordFile;
        return this;
    }

    /** Runs the lean feature ({@code ./sling-vt run --feature lean}) instead of the starter feature. */
    public SlingInstanceBuilder lean() {
        this.featureFile = FEATURE_LEAN;
        return this;
    }

    /** Runs a Sling without Sling VT (the starter stack, Sling's own thread pools) to install Sling VT into. */
    public SlingInstanceBuilder stock() {
        this.featureFile = FEATURE_STOCK;
        return this;
    }

    /**
     * Runs the feature archive {@code far} as a user of the release does (its README): {@code -f FAR -c HOME/cache
     * -u file://HOME/cache}, so the launcher unpacks the archive into the cache and takes every artifact from there;
     * no other repository, {@code HOME} (where {@code ~/.m2} would be) an empty folder, no network ({@link #noNetwork()}).
     */
    public SlingInstanceBuilder featureArchive(Path far) {
        if (!Files.isRegularFile(far)) {
            throw new IllegalArgumentException("Not a feature archive: " + far);
        }
        this.featureArchive = far;
        return this;
    }

    /** A feature variable of the launch ({@code -V name=value}), as {@code ./sling-vt run --var} sets it. */
    public SlingInstanceBuilder variable(String name, String value) {
        variables.put(name, value);
        return this;
    }

    /** Launches the instance and waits until it answers; fails with the tails of its logs if it does not. */
    public SlingInstance start() {
        final Path featureDir = Path.of(System.getProperty(FEATURE_DIR_PROPERTY, "../feature-model/target"))
                .toAbsolutePath().normalize();
        final Path launcher = featureDir.resolve(LAUNCHER);
        // The PostgreSQL feature is lean (as ./sling-vt run --store postgres).
        final Path feature = featureDir.resolve(jdbcUrl != null ? FEATURE_POSTGRES : featureFile);
        if (!Files.isExecutable(launcher) || !Files.isRegularFile(feature)) {
            throw new IllegalStateException("No assembled feature in " + featureDir + " (missing " + launcher + " or "
                    + feature + "): build feature-model first (./sling-vt build)");
        }
        final Path home = this.home != null ? this.home : Path.of(System.getProperty(E2E_DIR_PROPERTY, "target/e2e"))
                .toAbsolutePath().normalize().resolve(name + "-" + UUID.randomUUID().toString().substring(0, 8));
        if (home.toString().matches(".*\\s.*") || featureDir.toString().matches(".*\\s.*")) {
            // The launcher script expands JAVA_OPTS without quotes.
            throw new IllegalStateException("Paths with whitespace are not supported: " + home + ", " + featureDir);
        }
        try {
            Files.createDirectories(home.resolve("logs"));
            final Path installDir = Files.createDirectories(SlingInstance.installDir(home));
            for (Path file : installFiles) {
                Files.copy(file, installDir.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
            if (smallDemoTree && this.home == null) {
                writeSmallDemoTree(installDir);
            }
            final int port = freePort();
            final boolean archive = featureArchive != null;
            final List<String> command = new ArrayList<>(List.of(launcher.toString(),
                    "-f", (archive ? featureArchive : feature).toString(),
                    "-u", "file://" + (archive ? home.resolve("cache") : featureDir.resolve("artifacts")),
                    "-p", home.resolve("launcher").toString(),
                    "-c", home.resolve("cache").toString(),
                    "-V", "sling.home=" + home, "-V", "http.port=" + port, "-V", "http.host=127.0.0.1"));
            if (jdbcUrl != null) {
                command.addAll(List.of("-V", "oak.jdbc.url=" + jdbcUrl));
                writeSecret(home, Files.readString(passwordFile));
            }
            variables.forEach((key, value) -> command.addAll(List.of("-V", key + "=" + value)));
            frameworkProperties.forEach((key, value) -> command.addAll(List.of("-D", key + "=" + value)));
            final ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(home.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(home.resolve("logs/stdout.log").toFile());
            builder.environment().put("JAVA_HOME", javaHome().toString());
            if (archive) {
                builder.environment().put("HOME", Files.createDirectories(home.resolve("empty-user-home")).toString());
                jvmOptions.addAll(noNetwork());
            }
            builder.environment().put("JAVA_OPTS", "-Dsling.home=" + home
                    + " -Dlogback.configurationFile=" + featureDir.resolve("conf/logback.xml")
                    + jvmOptions.stream().map(option -> " " + option).collect(Collectors.joining()));
            LOG.info("Starting Sling '{}' on http://127.0.0.1:{}/ with the Java of {}, home {}", name, port,
                    javaHome(), home);
            // The launcher script ends with "exec java ...": the PID of this process is the PID of the Sling JVM.
            final SlingInstance sling = new SlingInstance(name, home, port, builder.start()).awaitReady();
            BackgroundStops.awaitAll();
            return sling;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot launch Sling '" + name + "' in " + home, e);
        }
    }

    /** JVM options that send every HTTP(S) connection beyond this host to a port where nothing listens. */
    private static List<String> noNetwork() throws IOException {
        final String closedPort = Integer.toString(freePort());
        return List.of("-Dhttp.proxyHost=127.0.0.1", "-Dhttp.proxyPort=" + closedPort,
                "-Dhttps.proxyHost=127.0.0.1", "-Dhttps.proxyPort=" + closedPort);
    }

    /** The seeder configuration of {@link #smallDemoTree()}, written into {@code installDir}. */
    static void writeSmallDemoTree(Path installDir) throws IOException {
        OverloadSupport.configFile(installDir, SEEDER_PID,
                Map.of("folders", SMALL_TREE_FOLDERS, "nodesPerFolder", SMALL_TREE_NODES_PER_FOLDER));
    }

    /** The JDK (or runtime) the instances run on. */
    public static Path javaHome() {
        String configured = System.getProperty(JAVA_HOME_PROPERTY, "");
        Path home = Path.of(configured.isBlank() ? System.getProperty("java.home") : configured);
        if (!Files.isExecutable(home.resolve("bin/java"))) {
            throw new IllegalStateException("No bin/java in " + home + " (" + JAVA_HOME_PROPERTY + "=" + configured + ")");
        }
        return home;
    }

    /** The Java version of {@link #javaHome()}, from its {@code release} file. */
    public static String javaVersion() {
        try {
            for (String line : Files.readAllLines(javaHome().resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return line.substring("JAVA_VERSION=".length()).replace("\"", "");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("No JAVA_VERSION in " + javaHome().resolve("release"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    /** HOME/launcher/secrets/oak-db-password (the launcher's folder is the instance's sling.home), readable by its owner only, as ./sling-vt run writes it. */
    static void writeSecret(Path home, String password) throws IOException {
        final Path secrets = home.resolve("launcher").resolve("secrets");
        Files.createDirectories(secrets);
        Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rwx------"));
        final Path file = secrets.resolve("oak-db-password");
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, password);
    }

}
