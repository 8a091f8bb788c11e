package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./sling-vt} entry point itself: JDK discovery, a busy port, status and live mode switching. */
@ExtendWith(SharedSlingInstance.class)
class SlingVtScriptE2EIT {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
    private static final Path TEST_JDK = Path.of(System.getProperty("java.home"));

    private record Result(int exitCode, String output) {
    }

    private static Result run(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("sling-vt").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            boolean done = process.waitFor(60, TimeUnit.SECONDS);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(done).as("sling-vt %s finished within 60 s; output: %s", command, output).isTrue();
            return new Result(process.exitValue(), output);
        } finally {
            process.destroyForcibly();
        }
    }

    /** A directory that looks like a JDK 17 (release file and executables), as on a machine with only Java 17. */
    private static Path fakeJdk17(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("jdk-17/bin"));
        for (String tool : List.of("java", "javac")) {
            Path exe = Files.writeString(bin.resolve(tool), "#!/bin/sh\necho 'openjdk version \"17.0.15\"' >&2\n");
            Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.writeString(dir.resolve("jdk-17/release"), "JAVA_VERSION=\"17.0.15\"\n");
        return dir.resolve("jdk-17");
    }

    @Test
    void withoutAJdk21ItStopsAndNamesWhatToInstall(@TempDir Path tmp) throws Exception {
        Path jdk17 = fakeJdk17(tmp);
        Result result = run(Map.of("JAVA_HOME", jdk17.toString(), "SLING_VT_JDK_DIRS", tmp.toString()), "java");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("no JDK 21 or newer found").contains("Install a JDK 21+");
    }

    @Test
    void anOldJavaHomeIsSkippedForTheNewestJdkFound(@TempDir Path tmp) throws Exception {
        Path jdk17 = fakeJdk17(tmp);
        Result result = run(Map.of("JAVA_HOME", jdk17.toString(),
                "SLING_VT_JDK_DIRS", tmp + ":" + TEST_JDK.getParent()), "java");
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("is not a JDK >= 21").contains("at " + TEST_JDK.getParent());
        assertThat(result.output()).doesNotContain("JDK 17 at");
    }

    @Test
    void aBusyPortIsReportedClearly(@TempDir Path tmp) throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = busy.getLocalPort();
            Result result = run(Map.of(), "run", "--port", Integer.toString(port), "--home", tmp.toString());
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.output()).contains("port " + port + " on 127.0.0.1 is already in use");
        }
    }

    @Test
    void statusShowsVirtualModeAndModeSwitchesLive(SlingInstance sling) throws Exception {
        String port = Integer.toString(URI.create(sling.baseUrl()).getPort());
        Result status = run(Map.of(), "status", "--port", port);
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output()).contains("\"mode\":\"virtual\"").contains("\"inFlight\":")
                .contains("\"peakInFlight\":").contains("\"admitted\":").contains("\"rejected\":")
                .contains("\"completed\":").contains("\"threadPools\":");
        try {
            Result kernel = run(Map.of(), "mode", "kernel", "--port", port);
            assertThat(kernel.exitCode()).as(kernel.output()).isZero();
            assertThat(run(Map.of(), "status", "--port", port).output()).contains("\"mode\":\"kernel\"");
        } finally {
            Result back = run(Map.of(), "mode", "virtual", "--port", port);
            assertThat(back.exitCode()).as(back.output()).isZero();
        }
        assertThat(run(Map.of(), "status", "--port", port).output()).contains("\"mode\":\"virtual\"");
        Result bad = run(Map.of(), "mode", "turbo", "--port", port);
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.output()).contains("'virtual' or 'kernel'");
    }
}
