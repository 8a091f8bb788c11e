package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #17 through {@code ./sling-vt} itself: an instance whose HTTP configuration cannot be read is not announced
 * as "Sling is up" but as not ready, with the refused value; {@code status} lists it under {@code configErrors};
 * and when the HTTP layer is not active at all, {@code status} says which state it is in instead of guessing.
 */
class SlingVtReadinessE2EIT {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
    private static final String HTTP_PID = "io.github.slingvt.http.VirtualThreads";

    @Test
    void aRefusedConfigurationIsReportedInsteadOfSlingIsUpAndStatusNamesIt(@TempDir Path home) throws Exception {
        Path install = Files.createDirectories(home.resolve("launcher/install"));
        Files.writeString(install.resolve(HTTP_PID + ".cfg.json"), "{\"maxConcurrentRequests\":\"lots\"}");
        int port = freePort();
        Path output = home.resolve("run.out");
        ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("sling-vt").toString(), "run", "--port",
                Integer.toString(port), "--home", home.toString(), "--java", SlingInstanceBuilder.javaHome().toString())
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("SLING_VT_JVM_OPTS", SlingInstanceBuilder.FUNCTIONAL_CHECKS_ONLY);
        Process run = builder.start();
        try {
            String announced = ScriptRuns.awaitAnnouncement(run, output);
            // A configuration put into a new home before its first start does not make it a lean home from before
            // --feature existed: the default feature starts.
            assertThat(announced).contains("starting Sling (starter feature,").doesNotContain("Sling is up")
                    .contains("but it is NOT ready:")
                    .contains("configuration refused: " + HTTP_PID + ": property 'maxConcurrentRequests' = 'lots' "
                            + "refused; allowed: auto or a whole number from 0 to 1000000");

            String status = script("status", "--port", Integer.toString(port));
            assertThat(status).contains("\"mode\":\"virtual\"").contains("\"configErrors\":[{\"pid\":\"" + HTTP_PID
                    + "\",\"property\":\"maxConcurrentRequests\",\"value\":\"lots\"");

            String url = "http://127.0.0.1:" + port;
            ConsoleConfigs.apply(url, HTTP_PID, Map.of("maxConcurrentRequests", List.of("0")));
            awaitStatus(port, "\"configErrors\":[]");

            HttpResponse<String> stopped = ConsoleConfigs.post(url, "/system/console/bundles/http-virtual-threadpool",
                    "action=stop");
            assertThat(stopped.statusCode()).as("stopping the bundle: %s", stopped.body()).isEqualTo(200);
            assertThat(script("status", "--port", Integer.toString(port)))
                    .contains("the HTTP layer of Sling VT is not active: bundle http-virtual-threadpool is 'Resolved'");
        } finally {
            // The script's trap stops the JVM it started and removes its pidfile.
            run.destroy();
            assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("./sling-vt run stopped").isTrue();
            assertThat(home.resolve("sling.pid")).doesNotExist();
        }
    }

    private static void awaitStatus(int port, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String status;
        while (!(status = script("status", "--port", Integer.toString(port))).contains(expected)) {
            assertThat(System.nanoTime()).as("status shows %s within 30 s: %s", expected, status).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static String script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("sling-vt").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("sling-vt %s finished", command).isTrue();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
