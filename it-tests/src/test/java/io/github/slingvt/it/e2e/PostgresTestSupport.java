package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * For end-to-end tests on the {@code sling-vt-postgres} feature: one PostgreSQL per test class ({@link #postgres}),
 * started by {@code ./sling-vt postgres start} on a free port in a temp folder and stopped by its PID after the class.
 */
abstract class PostgresTestSupport {

    protected static PostgresServer postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
            assertThat(postgres.pid() > 0 && ProcessHandle.of(postgres.pid()).map(ProcessHandle::isAlive).orElse(false))
                    .as("%s stopped", postgres).isFalse();
            postgres = null;
        }
    }

    /** The instance's repository status ({@code store}, {@code clusterId}, {@code activeClusterIds}, {@code jdbcPool}). */
    static JsonNode repository(SlingInstance sling) {
        HttpResponse<String> response = sling.get("/system/console/status-slingvt-repository.json", true);
        assertThat(response.statusCode()).as("repository status: %s", response.body()).isEqualTo(200);
        return DemoServletsSupport.json(response);
    }
}
