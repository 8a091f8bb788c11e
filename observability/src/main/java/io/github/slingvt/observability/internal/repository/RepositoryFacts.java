package io.github.slingvt.observability.internal.repository;

import java.util.Map;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads the repository's facts from what Oak and the Sling data source publish, into the JSON document of the status
 * printer {@code slingvt-repository} (member names are what {@code ./sling-vt status} and the benchmark read).
 */
final class RepositoryFacts {

    /** The MBeans of the Sling data sources' pools (tomcat-jdbc, registered by org.apache.sling.datasource). */
    static final String POOL_MBEANS = "org.apache.sling:type=ConnectionPool,*";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RepositoryFacts() {
    }

    /**
     * The status from Oak's discovery-lite cluster view (a JSON document such as {@code {"me":2,"active":[1,2],...}};
     * {@code null} on segment-tar) and the data source pools by name (the first one is reported: the feature has one,
     * Oak's). A cluster view that cannot be read leaves the cluster ids out and says why.
     */
    static ObjectNode describe(String clusterView, Map<String, ObjectNode> pools) {
        ObjectNode status = NODES.objectNode();
        ObjectNode oakPool = pools.isEmpty() ? null : pools.values().iterator().next();
        if (clusterView == null) {
            status.put("store", "segment");
            status.putNull("clusterId");
        } else {
            String url = oakPool == null ? "" : oakPool.path("url").asText("");
            status.put("store", url.startsWith("jdbc:postgresql:") ? "postgres" : "document");
            clusterIds(clusterView, status);
        }
        if (oakPool != null) {
            status.set("jdbcPool", oakPool);
        }
        return status;
    }

    private static void clusterIds(String clusterView, ObjectNode status) {
        JsonNode view;
        try {
            view = MAPPER.readTree(clusterView);
        } catch (JsonProcessingException e) {
            status.putNull("clusterId");
            status.put("clusterViewError", "Oak's cluster view is not JSON: " + e.getOriginalMessage());
            return;
        }
        JsonNode me = view.path("me");
        if (me.canConvertToInt() && me.isIntegralNumber()) {
            status.put("clusterId", me.intValue());
        } else {
            status.putNull("clusterId");
        }
        ArrayNode active = status.putArray("activeClusterIds");
        for (JsonNode id : view.path("active")) {
            if (id.isIntegralNumber()) {
                active.add(id.intValue());
            }
        }
    }

    /** A JDBC URL may carry credentials in its parameters ({@code ?password=}): the status shows none. */
    static String withoutQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }

    /** The pools of the Sling data sources, by data source name: what is borrowed, idle and waited for now. */
    static Map<String, ObjectNode> pools(MBeanServer server) {
        Map<String, ObjectNode> pools = new java.util.LinkedHashMap<>();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(POOL_MBEANS), null);
            for (ObjectName name : names) {
                ObjectNode pool = NODES.objectNode();
                pool.put("url", withoutQuery(String.valueOf(server.getAttribute(name, "Url"))));
                putNumber(pool, "active", server.getAttribute(name, "Active"));
                putNumber(pool, "idle", server.getAttribute(name, "Idle"));
                putNumber(pool, "waiting", server.getAttribute(name, "WaitCount"));
                putNumber(pool, "maxActive", server.getAttribute(name, "MaxActive"));
                putNumber(pool, "borrowed", server.getAttribute(name, "BorrowedCount"));
                String key = name.getKeyProperty("name");
                pools.put(key.startsWith("\"") ? ObjectName.unquote(key) : key, pool);
            }
        } catch (JMException | IllegalArgumentException e) {
            // A pool that went away between query and read: report what was read.
        }
        return pools;
    }

    /** The pool's MBean answers Integer or Long attributes; anything else is shown as text. */
    private static void putNumber(ObjectNode node, String name, Object value) {
        if (value instanceof Integer || value instanceof Long) {
            node.put(name, ((Number) value).longValue());
        } else {
            node.put(name, String.valueOf(value));
        }
    }
}
