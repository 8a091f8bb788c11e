package io.github.slingvt.observability.internal.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.Map;

import javax.jcr.Repository;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.slingvt.jdbc.RoundTrips;
import org.apache.felix.inventory.Format;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the repository status says from Oak's cluster view descriptor, the data source pools and the counter. */
@ExtendWith(OsgiContextExtension.class)
class RepositoryStatusTest {

    private static final String VIEW = "{\"seq\":4,\"final\":true,\"id\":\"5f1c\",\"me\":2,\"active\":[1, 2],"
            + "\"deactivating\":[],\"inactive\":[3]}";

    private final OsgiContext context = new OsgiContext();

    private static ObjectNode pool(String url, long active, long idle, long waiting, long max, long borrowed) {
        return JsonNodeFactory.instance.objectNode().put("url", url).put("active", active).put("idle", idle)
                .put("waiting", waiting).put("maxActive", max).put("borrowed", borrowed);
    }

    @Test
    void segmentTarHasNoClusterView() {
        ObjectNode status = RepositoryFacts.describe(null, Map.of());
        assertThat(status.path("store").asText()).isEqualTo("segment");
        assertThat(status.get("clusterId").isNull()).isTrue();
        assertThat(status.has("jdbcPool")).isFalse();
        assertThat(status.has("activeClusterIds")).isFalse();
    }

    @Test
    void aDocumentNodeStoreOnPostgresNamesItsClusterIdTheLeaseHoldersAndThePool() {
        ObjectNode pool = pool("jdbc:postgresql://127.0.0.1:15432/oak", 3, 7, 0, 50, 10);
        ObjectNode status = RepositoryFacts.describe(VIEW, Map.of("oak-pool", pool));
        assertThat(status.toString()).startsWith("{\"store\":\"postgres\",\"clusterId\":2,\"activeClusterIds\":[1,2],"
                + "\"jdbcPool\":{\"url\":\"jdbc:postgresql://127.0.0.1:15432/oak\",\"active\":3,");
    }

    @Test
    void theClusterViewIsReadAsJsonWhateverTheOrderAndSpacingOfItsMembers() {
        String reordered = "{ \"active\" : [ 3 ,1 ], \"inactive\": [2], \"me\" : 3 }";
        ObjectNode status = RepositoryFacts.describe(reordered, Map.of());
        assertThat(status.path("clusterId").intValue()).isEqualTo(3);
        assertThat(status.path("activeClusterIds").toString()).isEqualTo("[3,1]");
    }

    @Test
    void aClusterViewThatIsNotJsonLeavesTheIdsOutAndSaysWhy() {
        ObjectNode status = RepositoryFacts.describe("{\"me\":2,\"active\":[1,", Map.of());
        assertThat(status.path("store").asText()).isEqualTo("document");
        assertThat(status.get("clusterId").isNull()).isTrue();
        assertThat(status.path("clusterViewError").asText()).startsWith("Oak's cluster view is not JSON");
    }

    @Test
    void anotherDatabaseIsADocumentStore() {
        ObjectNode status = RepositoryFacts.describe(VIEW, Map.of("oak", pool("jdbc:h2:mem:oak", 0, 0, 0, 1, 0)));
        assertThat(status.path("store").asText()).isEqualTo("document");
    }

    @Test
    void theConsoleTableShowsThePoolFiguresAnOperatorSizesAgainst() {
        ObjectNode status = RepositoryFacts.describe(VIEW,
                Map.of("oak-pool", pool("jdbc:postgresql://127.0.0.1:15432/oak", 50, 0, 312, 50, 91_000)));
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
        ObjectNode status = RepositoryFacts.describe(null, Map.of());
        status.put("dbRoundTrips", 0L);
        status.put("store", "<b>segment</b>");
        StringWriter html = new StringWriter();
        RepositoryStatus.printHtml(new PrintWriter(html, true), status);
        assertThat(html.toString()).contains("&lt;b&gt;segment&lt;/b&gt;").doesNotContain("<b>")
                .doesNotContain("JDBC pool").doesNotContain("cluster id");
    }

    @Test
    void credentialsInTheJdbcUrlAreNotShown() {
        assertThat(RepositoryFacts.withoutQuery("jdbc:postgresql://db:5432/oak?user=oak&password=secret"))
                .isEqualTo("jdbc:postgresql://db:5432/oak");
        assertThat(RepositoryFacts.withoutQuery("jdbc:postgresql://db:5432/oak"))
                .isEqualTo("jdbc:postgresql://db:5432/oak");
    }

    @Test
    void segmentTarPublishesAClusterViewTooButIsNoDocumentStore() {
        context.registerService(Repository.class, stub(Repository.class, (method, args) ->
                RepositoryStatus.CLUSTER_VIEW.equals(args[0]) ? VIEW : null));
        context.registerService(RoundTrips.class, stub(RoundTrips.class, (method, args) -> 42L));
        RepositoryStatus status = context.registerInjectActivateService(RepositoryStatus.class);

        assertThat(status.status().path("store").asText()).isEqualTo("segment");
        assertThat(status.status().path("dbRoundTrips").longValue()).isEqualTo(42L);

        // Oak's DocumentNodeStore registers services of its package (its MBeans through Oak's OSGi whiteboard).
        context.bundleContext().registerService("org.apache.jackrabbit.oak.plugins.document.DocumentNodeStoreMBean",
                new Object(), null);
        assertThat(status.status().path("store").asText()).isEqualTo("document");
        assertThat(status.status().path("clusterId").intValue()).isEqualTo(2);
    }

    @Test
    void withoutTheRoundTripCounterTheStatusSaysTheCountIsMissing() {
        context.registerService(Repository.class, stub(Repository.class, (method, args) -> null));
        RepositoryStatus status = context.registerInjectActivateService(RepositoryStatus.class);

        StringWriter json = new StringWriter();
        status.print(new PrintWriter(json, true), Format.JSON, false);
        assertThat(json.toString()).isEqualTo("{\"store\":\"segment\",\"clusterId\":null,\"dbRoundTrips\":null}");
        StringWriter html = new StringWriter();
        status.printHtml(new PrintWriter(html, true));
        assertThat(html.toString()).contains("not counted (bundle jdbc-round-trips not installed)");
    }

    @Test
    void withoutADataSourcePoolThereIsNothingToRead() {
        assertThat(RepositoryFacts.pools(ManagementFactory.getPlatformMBeanServer())).isEmpty();
    }

    /** An interface answering its own methods with {@code answer}; Object's methods as an identity would. */
    private static <T> T stub(Class<T> type,
            java.util.function.BiFunction<java.lang.reflect.Method, Object[], Object> answer) {
        return type.cast(java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> type.getSimpleName() + " stub";
                    default -> answer.apply(method, args);
                }));
    }
}
