package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test can launch its own instance with extra framework properties and extra files for the Sling file installer
 * ({@link SlingInstanceBuilder}); {@link SlingInstance#close()} stops it by PID.
 */
class SeparateInstanceE2EIT {

    private static final String PROBE_PID = "io.github.slingvt.e2e.InstallProbe";
    private static final String FRAMEWORK_PROPERTIES = "/system/console/status-Framework%20Properties.txt";
    private static final String CONFIGURATIONS = "/system/console/status-Configurations.txt";

    @Test
    void separateInstanceGetsItsFrameworkPropertyAndInstallsTheConfigurationFile(@TempDir Path files)
            throws IOException, InterruptedException {
        final String property = "marker-" + UUID.randomUUID();
        final String configured = "configured-" + UUID.randomUUID();
        final Path config = Files.writeString(files.resolve(PROBE_PID + ".cfg.json"),
                "{ \"marker\": \"" + configured + "\" }");

        final SlingInstance sling = SlingInstance.builder("separate").smallDemoTree().functionalChecksOnly()
                .frameworkProperty("slingvt.e2e.marker", property)
                .installFile(config)
                .start();
        try (sling) {
            assertThat(sling.home()).isDirectoryContaining(path -> path.getFileName().toString().equals("logs"));
            assertThat(sling.installDir().resolve(config.getFileName())).exists();

            final HttpResponse<String> framework = sling.get(FRAMEWORK_PROPERTIES, true);
            assertThat(framework.statusCode()).as("GET %s as admin", FRAMEWORK_PROPERTIES).isEqualTo(200);
            assertThat(framework.body().lines()).as("framework properties")
                    .contains("slingvt.e2e.marker = " + property, "sling.fileinstall.dir = " + sling.installDir());

            // The OSGi installer applies the file asynchronously.
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            String configurations = configurations(sling);
            while (!configurations.contains(configured) && System.nanoTime() < deadline) {
                Thread.sleep(500);
                configurations = configurations(sling);
            }
            assertThat(configurations).as("configuration %s installed from %s", PROBE_PID, sling.installDir())
                    .contains(PROBE_PID)
                    .contains(configured);
        }
        BackgroundStops.awaitAll();
        assertThat(ProcessHandle.of(sling.pid()).map(ProcessHandle::isAlive).orElse(false))
                .as("Sling process %d alive after close() and the stop it started", sling.pid())
                .isFalse();
    }

    private static String configurations(SlingInstance sling) {
        final HttpResponse<String> response = sling.get(CONFIGURATIONS, true);
        assertThat(response.statusCode()).as("GET %s as admin", CONFIGURATIONS).isEqualTo(200);
        return response.body();
    }
}
