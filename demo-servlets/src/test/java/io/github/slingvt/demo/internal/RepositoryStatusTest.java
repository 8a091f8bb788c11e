package io.github.slingvt.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the repository status says from Oak's cluster view descriptor and the data source pools. */
class RepositoryStatusTest {

    private static final String VIEW = "{\"seq\":4,\"final\":true,\"id\":\"5f1c\",\"me\":2,\"active\":[1, 2],"
            + "\"deactivating\":[],\"inactive\":[3]}";

    @Test
    void segmentTarHasNoClusterView() {
        Map<String, Object> status = RepositoryStatus.describe(null, Map.of());
        assertThat(status).containsEntry("store", "segment").containsEntry("clusterId", null)
                .doesNotContainKey("jdbcPool");
    }

    @Test
    void aDocumentNodeStoreOnPostgresNamesItsClusterIdTheLeaseHoldersAndThePool() {
        Map<String, Object> pool = Map.of("url", "jdbc:postgresql://127.0.0.1:15432/oak", "active", 3, "idle", 7,
                "waiting", 0);
        Map<String, Object> status = RepositoryStatus.describe(VIEW, Map.of("oak-pool", pool));
        assertThat(status).containsEntry("store", "postgres").containsEntry("clusterId", 2)
                .containsEntry("activeClusterIds", List.of(1, 2)).containsEntry("jdbcPool", pool);
        assertThat(Json.write(status)).contains("\"store\":\"postgres\"").contains("\"clusterId\":2");
    }

    @Test
    void anotherDatabaseIsADocumentStore() {
        Map<String, Object> status = RepositoryStatus.describe(VIEW,
                Map.of("oak", Map.of("url", "jdbc:h2:mem:oak")));
        assertThat(status).containsEntry("store", "document");
    }

    @Test
    void withoutADataSourcePoolThereIsNothingToRead() {
        assertThat(RepositoryStatus.pools(ManagementFactory.getPlatformMBeanServer())).isEmpty();
    }
}
