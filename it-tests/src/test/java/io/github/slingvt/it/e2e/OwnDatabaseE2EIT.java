package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #29, part 1: the lab database asks for a password (scram-sha-256) that only its folder holds, and its role
 * oak owns the database without being a superuser; {@code ./sling-vt run --store postgres --db-url ... --db-user ...}
 * runs an instance on an existing PostgreSQL (here: the lab server standing in for one) with the password from
 * {@code SLING_VT_DB_PASSWORD_FILE}, and the password shows in no log, output or command line of the instance; a
 * password in the URL, or none at all, is refused with a message that says what to do.
 */
class OwnDatabaseE2EIT extends PostgresTestSupport {

    private static final Path ROOT = Path.of(System.getProperty("slingvt.root", "..")).toAbsolutePath().normalize();

    @Test
    void theLabDatabaseAsksForThePasswordAndOakIsNoSuperuser() throws Exception {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(postgres.passwordFile())))
                .isEqualTo("rw-------");
        String password = Files.readString(postgres.passwordFile());
        assertThat(password).hasSize(32).matches("[A-Za-z0-9]+");

        PostgresServer.PsqlResult without = postgres.psqlAsOak("SELECT 1", null);
        assertThat(without.exitCode()).as("no password: %s", without.output()).isNotZero();
        assertThat(without.output()).contains("password");
        PostgresServer.PsqlResult wrong = postgres.psqlAsOak("SELECT 1", "not-" + password);
        assertThat(wrong.exitCode()).isNotZero();
        assertThat(wrong.output()).contains("password authentication failed for user \"oak\"");

        assertThat(postgres.psqlAsOak("SELECT rolsuper, rolcreatedb FROM pg_roles WHERE rolname = 'oak'", password))
                .isEqualTo(new PostgresServer.PsqlResult(0, "f|t"));
        assertThat(postgres.psqlAsOak("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'oak'",
                password)).isEqualTo(new PostgresServer.PsqlResult(0, "oak"));
        PostgresServer.PsqlResult program = postgres.psqlAsOak("COPY (SELECT 1) TO PROGRAM 'true'", password);
        assertThat(program.exitCode()).as("COPY TO PROGRAM as oak: %s", program.output()).isNotZero();
        assertThat(program.output()).contains("must be superuser or have privileges of the pg_execute_server_program");
    }

    @Test
    void runTakesAnExistingDatabaseWithThePasswordFromAFileAndShowsItNowhere(@TempDir Path work) throws Exception {
        String password = Files.readString(postgres.passwordFile());
        Path passwordFile = work.resolve("db-password");
        Files.writeString(passwordFile, password + "\n");
        Path home = Files.createDirectories(work.resolve("home"));
        int port = freePort();
        Path output = work.resolve("run.out");
        ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("sling-vt").toString(), "run", "--store", "postgres",
                "--feature", "lean", "--db-url", postgres.jdbcUrl(), "--db-user", "oak", "--port",
                Integer.toString(port), "--home", home.toString(), "--java", SlingInstanceBuilder.javaHome().toString())
                .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("SLING_VT_DB_PASSWORD_FILE", passwordFile.toString());
        builder.environment().remove("SLING_VT_DB_PASSWORD");
        builder.environment().put("SLING_VT_JVM_OPTS", SlingInstanceBuilder.FUNCTIONAL_CHECKS_ONLY);
        Process run = builder.start();
        try {
            String announced = ScriptRuns.awaitAnnouncement(run, output);
            assertThat(announced).contains("Sling is up");
            String url = "http://127.0.0.1:" + port;
            JsonNode repository = DemoServletsSupport.JSON.readTree(getAsAdmin(url
                    + "/system/console/status-slingvt-repository.json"));
            assertThat(repository.path("store").asText()).as("%s", repository).isEqualTo("postgres");
            assertThat(repository.at("/jdbcPool/url").asText()).isEqualTo(postgres.jdbcUrl());
            assertThat(repository.at("/jdbcPool/borrowed").asLong()).isPositive();

            Path secret = home.resolve("launcher/secrets/oak-db-password");
            assertThat(Files.readString(secret)).as("trailing newline of the file dropped").isEqualTo(password);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret.getParent())))
                    .isEqualTo("rwx------");
            long pid = Long.parseLong(Files.readAllLines(home.resolve("sling.pid")).get(0).trim());
            String commandLine = ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("");
            assertThat(commandLine).as("the JVM's command line").contains("oak.jdbc.url").doesNotContain(password);
            assertThat(Files.readString(output)).doesNotContain(password);
            try (Stream<Path> files = Files.walk(home)) {
                List<Path> showing = new ArrayList<>();
                for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.equals(secret))
                        .filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".json")
                                || f.toString().endsWith(".config") || f.toString().endsWith(".cfg")).toList()) {
                    if (Files.readString(f, StandardCharsets.ISO_8859_1).contains(password)) {
                        showing.add(f);
                    }
                }
                assertThat(showing).as("files of the home that hold the password besides the secret").isEmpty();
            }
            HttpResponse<String> config = ConsoleConfigs.post(url,
                    "/system/console/configMgr/org.apache.sling.datasource.DataSourceFactory~oak", "");
            assertThat(config.body()).as("the data source's configuration in the console")
                    .contains("\"pid\":\"org.apache.sling.datasource.DataSourceFactory~oak\"").doesNotContain(password);
        } finally {
            // The script's trap stops the JVM it started.
            run.destroy();
            assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("./sling-vt run stopped").isTrue();
        }
    }

    @Test
    void aPasswordInTheUrlOrNoneAtAllIsRefused(@TempDir Path work) throws Exception {
        assertThat(script(work, Map.of(), "--db-url", postgres.jdbcUrl() + "?password=secret"))
                .contains("--db-url must not carry the password")
                .contains("SLING_VT_DB_PASSWORD_FILE");
        assertThat(script(work, Map.of(), "--db-url", "postgres://127.0.0.1/oak"))
                .contains("--db-url must be a PostgreSQL JDBC URL");
        assertThat(script(work, Map.of("SLING_VT_DB_PASSWORD_FILE", work.resolve("missing").toString()),
                "--db-url", postgres.jdbcUrl())).contains("is not a readable file");
        assertThat(script(work, Map.of(), "--db-url", postgres.jdbcUrl()))
                .contains("set SLING_VT_DB_PASSWORD_FILE to a file holding the database password");
        assertThat(work.resolve("home/sling.pid")).as("no instance started").doesNotExist();
    }

    /** {@code ./sling-vt run --store postgres ARGS} that must fail; its output. */
    private static String script(Path work, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("sling-vt").toString(), "run", "--store",
                "postgres", "--home", work.resolve("home").toString(), "--port", Integer.toString(freePort()),
                "--java", SlingInstanceBuilder.javaHome().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        builder.environment().remove("SLING_VT_DB_PASSWORD");
        builder.environment().remove("SLING_VT_DB_PASSWORD_FILE");
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("sling-vt %s ended", command).isTrue();
        assertThat(p.exitValue()).as("exit code of %s: %s", command, out).isNotZero();
        return out;
    }

    private static String getAsAdmin(String url) throws Exception {
        HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                        .header("Authorization", SlingInstance.ADMIN_AUTHORIZATION).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
        return response.body();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
