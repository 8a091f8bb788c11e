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
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sling-vt} entry point itself: JDK discovery, missing tools, a busy port, status and live mode switching,
 * and the admin login of status and mode (issue #30): a wrong password is a refused login, a changed one is given by
 * the environment or a file and never reaches a command line.
 */
@ExtendWith(SharedSlingInstance.class)
class SlingVtScriptE2EIT {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();
    private static final Path TEST_JDK = Path.of(System.getProperty("java.home"));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Quotes, a backslash, a colon, spaces and a dollar: all must reach Sling unchanged through curl's config. */
    private static final String NEW_PASSWORD = "n3w \"pass\" \\word: $HOME x";
    /** Changes the password of the logged-in user (Oak's User.changePassword): Sling's ECMAScript, in the starter. */
    private static final String CHANGE_PASSWORD_SCRIPT = """
            var session = request.getResourceResolver().adaptTo(Packages.javax.jcr.Session);
            var user = session.getUserManager().getAuthorizable(session.getUserID());
            user.changePassword(request.getParameter("newPwd"), request.getParameter("oldPwd"));
            session.save();
            out.print("password changed for " + session.getUserID());
            """;

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

    /** A folder of links to the tools the script uses, without curl: a machine where curl is not installed. */
    private static Path pathWithoutCurl(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin-without-curl"));
        for (String tool : List.of("bash", "dirname", "sed", "cat", "head", "id", "python3")) {
            Files.createSymbolicLink(bin.resolve(tool), onPath(tool));
        }
        return bin;
    }

    private static Path onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(":")).map(dir -> Path.of(dir, tool)).filter(Files::isExecutable)
                .findFirst().orElseThrow(() -> new AssertionError(tool + " is not on the PATH"));
    }

    /** A curl that writes its arguments to {@code dir/curl-args} and runs the real one: what {@code ps} would show. */
    private static Path curlSpy(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin-curl-spy"));
        Path exe = Files.writeString(bin.resolve("curl"), "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '"
                + dir.resolve("curl-args") + "'\nexec '" + onPath("curl") + "' \"$@\"\n");
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    private static JsonNode statusJson(Result status) throws IOException {
        assertThat(status.exitCode()).as(status.output()).isZero();
        return JSON.readTree(status.output());
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
    void withoutCurlStatusAndRunStopAtOnceNamingIt(@TempDir Path tmp) throws Exception {
        Path bin = pathWithoutCurl(tmp);
        long start = System.nanoTime();
        Result status = run(Map.of("PATH", bin.toString()), "status", "--port", "1");
        Result run = run(Map.of("PATH", bin.toString()), "run", "--port", "1", "--home", tmp.resolve("home").toString());
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).as("no waiting").isLessThan(10);
        assertThat(status.exitCode()).isNotZero();
        assertThat(status.output()).contains("status needs curl, not found on the PATH").contains("apt-get install curl");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("run needs curl, not found on the PATH").doesNotContain("building");
        assertThat(tmp.resolve("home")).doesNotExist();
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
        JsonNode json = statusJson(status);
        assertThat(json.path("mode").asText()).isEqualTo("virtual");
        assertThat(json.path("threadPools").isObject()).as("threadPools merged in: %s", status.output()).isTrue();
        assertThat(json.path("repository").path("store").asText()).isEqualTo("segment");
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

    @Test
    void aWrongPasswordIsALoginRefusedNotAMissingBundle(SlingInstance sling) throws Exception {
        String port = Integer.toString(URI.create(sling.baseUrl()).getPort());
        Result status = run(Map.of("SLING_VT_ADMIN_PASSWORD", "not-the-password"), "status", "--port", port);
        assertThat(status.exitCode()).isNotZero();
        assertThat(status.output()).contains("login refused (HTTP 401): set SLING_VT_ADMIN_PASSWORD or "
                + "SLING_VT_ADMIN_PASSWORD_FILE").doesNotContain("not installed").doesNotContain("not active")
                .doesNotContain("not-the-password");
        Result mode = run(Map.of("SLING_VT_ADMIN_PASSWORD", "not-the-password"), "mode", "kernel", "--port", port);
        assertThat(mode.exitCode()).isNotZero();
        assertThat(mode.output()).contains("login refused (HTTP 401)").doesNotContain("not-the-password");
        assertThat(statusJson(run(Map.of(), "status", "--port", port)).path("mode").asText()).isEqualTo("virtual");
    }

    /**
     * On an instance of its own (the shared one keeps admin / admin for the other tests): the admin password is
     * changed, then status and mode refuse the default login and work with the new password from
     * SLING_VT_ADMIN_PASSWORD and from SLING_VT_ADMIN_PASSWORD_FILE, which never appears in curl's arguments.
     */
    @Test
    void statusAndModeWorkWithAChangedAdminPasswordFromTheEnvironmentOrAFile(@TempDir Path tmp) throws Exception {
        try (SlingInstance own = SlingInstance.builder("script-password").smallDemoTree().functionalChecksOnly()
                .start()) {
            String port = Integer.toString(URI.create(own.baseUrl()).getPort());
            changeAdminPassword(own, NEW_PASSWORD);

            Result refused = run(Map.of(), "status", "--port", port);
            assertThat(refused.exitCode()).isNotZero();
            assertThat(refused.output()).contains("login refused (HTTP 401): set SLING_VT_ADMIN_PASSWORD or "
                    + "SLING_VT_ADMIN_PASSWORD_FILE").doesNotContain("not installed");

            Path bin = curlSpy(tmp);
            String path = bin + ":" + System.getenv("PATH");
            Map<String, String> byEnv = Map.of("SLING_VT_ADMIN_PASSWORD", NEW_PASSWORD, "PATH", path);
            assertThat(statusJson(run(byEnv, "status", "--port", port)).path("mode").asText()).isEqualTo("virtual");
            Result kernel = run(byEnv, "mode", "kernel", "--port", port);
            assertThat(kernel.exitCode()).as(kernel.output()).isZero();

            Path file = Files.writeString(tmp.resolve("admin-password"), NEW_PASSWORD + "\n");
            Map<String, String> byFile = Map.of("SLING_VT_ADMIN_PASSWORD_FILE", file.toString(), "PATH", path);
            Result status = run(byFile, "status", "--port", port);
            JsonNode json = statusJson(status);
            assertThat(json.path("mode").asText()).isEqualTo("kernel");
            assertThat(json.path("threadPools").isObject()).as(status.output()).isTrue();
            Result virtual = run(byFile, "mode", "virtual", "--port", port);
            assertThat(virtual.exitCode()).as(virtual.output()).isZero();
            assertThat(statusJson(run(byFile, "status", "--port", port)).path("mode").asText()).isEqualTo("virtual");

            Result missing = run(Map.of("SLING_VT_ADMIN_PASSWORD_FILE", tmp.resolve("nope").toString()), "status",
                    "--port", port);
            assertThat(missing.exitCode()).isNotZero();
            assertThat(missing.output()).contains("SLING_VT_ADMIN_PASSWORD_FILE=" + tmp.resolve("nope"))
                    .contains("no such file");

            String curlArgs = Files.readString(tmp.resolve("curl-args"));
            assertThat(curlArgs).contains("/system/console/status-slingvt-http.json")
                    .contains("/system/console/slingvt").doesNotContain("n3w").doesNotContain("admin:");
            for (Result result : List.of(refused, kernel, status, virtual, missing)) {
                assertThat(result.output()).doesNotContain("n3w");
            }
        }
    }

    /** Puts {@link #CHANGE_PASSWORD_SCRIPT} under /apps (admin login) and POSTs the old and new password to it. */
    private static void changeAdminPassword(SlingInstance sling, String newPassword) {
        var script = sling.postForm("/apps/slingvt-it/changepw/POST.ecma", Map.of(
                "jcr:primaryType", "nt:file",
                "jcr:content/jcr:primaryType", "nt:resource",
                "jcr:content/jcr:mimeType", "application/ecmascript",
                "jcr:content/jcr:data", CHANGE_PASSWORD_SCRIPT,
                "jcr:content/jcr:data@TypeHint", "Binary"), true);
        assertThat(script.statusCode()).as("script upload: %s", script.body()).isIn(200, 201);
        var resource = sling.postForm("/content/slingvt-it-changepw",
                Map.of("sling:resourceType", "slingvt-it/changepw"), true);
        assertThat(resource.statusCode()).as("resource: %s", resource.body()).isIn(200, 201);
        var changed = sling.postForm("/content/slingvt-it-changepw",
                Map.of("oldPwd", "admin", "newPwd", newPassword), true);
        assertThat(changed.statusCode()).as("password change: %s", changed.body()).isEqualTo(200);
        assertThat(changed.body()).contains("password changed for admin");
        assertThat(sling.get("/system/console/status-slingvt-http.json", true).statusCode())
                .as("admin / admin no longer logs in").isEqualTo(401);
    }
}
