package io.github.slingvt.demo.internal.status;

import io.github.slingvt.demo.internal.http.Json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;

import javax.jcr.Repository;

import io.github.slingvt.jdbc.RoundTrips;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the repository status says from Oak's cluster view descriptor and the data source pools. */
@ExtendWith(SlingContextExtension.class)
public class RepositoryStatusTest {

    private static final String VIEW = "{\"seq\":4,\"final\":true,\"id\":\"5f1c\",\"me\":2,\"active\":[1, 2],"
            + "\"deactivating\":[],\"inactive\":[3]}";

    private final SlingContext context = new SlingContext();

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
    void theConsoleTableShowsThePoolFiguresAnOperatorSizesAgainst() {
        Map<String, Object> pool = Map.of("url", "jdbc:postgresql://127.0.0.1:15432/oak", "active", 50, "idle", 0,
                "waiting", 312, "maxActive", 50, "borrowed", 91_000);
        Map<String, Object> status = RepositoryStatus.describe(VIEW, Map.of("oak-pool", pool));
        status.put("dbRoundTrips", 123_456L);
        StringWriter html = new StringWriter();
        RepositoryStatus.printHtml(new PrintWriter(html, true), status);
        assertThat(html.toString()).contains("id='slingvt-repository'")
                .contains("<td>Store</td><td>postgres</td>")
                .contains("<td>2 ([1, 2])</td>")
                .contains("<td>Connections active / idle / max</td><td>50 / 0 / 50</td>")
                .contains("<td>Threads waiting for a connection</td><td>312</td>")
                .contains("<td>Database round trips so far</td><td>123456</td>");
    }

    @Test
    void onSegmentTarTheTableHasNoPoolAndTextIsEscaped() {
        Map<String, Object> status = RepositoryStatus.describe(null, Map.of());
        status.put("dbRoundTrips", 0L);
        status.put("store", "<b>segment</b>");
        StringWriter html = new StringWriter();
        RepositoryStatus.printHtml(new PrintWriter(html, true), status);
        assertThat(html.toString()).contains("&lt;b&gt;segment&lt;/b&gt;").doesNotContain("<b>")
                .doesNotContain("JDBC pool").doesNotContain("cluster id");
    }

    @Test
    void credentialsInTheJdbcUrlAreNotShown() {
        assertThat(RepositoryStatus.withoutQuery("jdbc:postgresql://db:5432/oak?user=oak&password=secret"))
                .isEqualTo("jdbc:postgresql://db:5432/oak");
        assertThat(RepositoryStatus.withoutQuery("jdbc:postgresql://db:5432/oak"))
                .isEqualTo("jdbc:postgresql://db:5432/oak");
    }

    @Test
    void segmentTarPublishesAClusterViewTooButIsNoDocumentStore() {
        Repository repository = stub(Repository.class, (method, args) ->
                RepositoryStatus.CLUSTER_VIEW.equals(args[0]) ? VIEW : null);
        RoundTrips roundTrips = stub(RoundTrips.class, (method, args) -> 0L);
        RepositoryStatus status = new RepositoryStatus(repository, roundTrips, context.bundleContext());

        assertThat(status.status()).containsEntry("store", "segment").containsEntry("clusterId", null);

        // Oak's DocumentNodeStore registers services of its package (its MBeans through Oak's OSGi whiteboard).
        context.bundleContext().registerService("org.apache.jackrabbit.oak.plugins.document.DocumentNodeStoreMBean",
                new Object(), null);
        assertThat(status.status()).containsEntry("store", "document").containsEntry("clusterId", 2);
    }

    @Test
    void withoutADataSourcePoolThereIsNothingToRead() {
        assertThat(RepositoryStatus.pools(ManagementFactory.getPlatformMBeanServer())).isEmpty();
    }

    /** An interface answering every call with {@code answer} (no Mockito in this module). */
    private static <T> T stub(Class<T> type,
            java.util.function.BiFunction<java.lang.reflect.Method, Object[], Object> answer) {
        return type.cast(java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> answer.apply(method, args)));
    }
}
