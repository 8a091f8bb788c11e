package io.github.slingvt.demo.internal.status;

import io.github.slingvt.demo.internal.http.Json;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.jcr.Repository;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.github.slingvt.jdbc.RoundTrips;
import io.github.slingvt.observability.api.ConsoleSection;

/**
 * What the repository under the workload is: the node store (segment-tar, or Oak's DocumentNodeStore and then
 * which database), this instance's Oak cluster id and the cluster ids holding a lease, the figures of the JDBC pool
 * that Oak's RDB store draws on (a Sling data source), and the database round trips counted so far. Printed as the
 * web console status {@code slingvt-repository} (JSON, text and HTML; {@code ./sling-vt status} shows it under
 * {@code "repository"}) and as a section of the console page "Virtual Threads".
 */
@Component(service = {InventoryPrinter.class, ConsoleSection.class}, property = {
        InventoryPrinter.NAME + "=slingvt-repository",
        InventoryPrinter.TITLE + "=Sling VT - Repository",
        InventoryPrinter.FORMAT + "=JSON",
        InventoryPrinter.FORMAT + "=TEXT",
        InventoryPrinter.FORMAT + "=HTML"})
public final class RepositoryStatus implements InventoryPrinter, ConsoleSection {

    /** Oak's DocumentNodeStore publishes its cluster view under this repository descriptor (discovery-lite). */
    static final String CLUSTER_VIEW = "oak.discoverylite.clusterview";
    /** The MBean of the Sling data source's pool (tomcat-jdbc, registered by org.apache.sling.datasource). */
    static final String POOL_MBEANS = "org.apache.sling:type=ConnectionPool,*";
    private static final Pattern ME = Pattern.compile("\"me\"\\s*:\\s*(\\d+)");
    private static final Pattern ACTIVE = Pattern.compile("\"active\"\\s*:\\s*\\[([0-9,\\s]*)]");

    /**
     * Oak's DocumentNodeStore registers its services (node store, MBeans through Oak's OSGi whiteboard) from this
     * package; segment-tar has none of them. The cluster view cannot tell the two apart: segment-tar publishes one
     * too (a cluster of one).
     */
    static final String DOCUMENT_SERVICES = "(objectClass=org.apache.jackrabbit.oak.plugins.document.*)";

    private final Repository repository;
    private final RoundTrips roundTrips;
    private final BundleContext context;

    @Activate
    public RepositoryStatus(@Reference Repository repository, @Reference RoundTrips roundTrips,
            BundleContext context) {
        this.repository = repository;
        this.roundTrips = roundTrips;
        this.context = context;
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        Map<String, Object> status = status();
        if (format == Format.JSON) {
            out.print(Json.write(status));
        } else if (format == Format.HTML) {
            printHtml(out, status);
        } else {
            status.forEach((k, v) -> out.println(k + ": " + (v instanceof Map || v instanceof List ? Json.write(v) : v)));
        }
    }

    @Override
    public String title() {
        return "Repository and JDBC pool";
    }

    @Override
    public void printHtml(PrintWriter out) {
        printHtml(out, status());
    }

    /**
     * A table in the web console's style. The pool row is what an operator sizing {@code maxConcurrentRequests}
     * against the pool watches: threads waiting for a connection mean more requests run than the pool serves.
     */
    @SuppressWarnings("unchecked")
    static void printHtml(PrintWriter out, Map<String, Object> status) {
        out.println("<table class='nicetable' id='slingvt-repository'>");
        row(out, "Store", status.get("store"));
        if (status.containsKey("activeClusterIds")) {
            row(out, "Oak cluster id (ids holding a lease)",
                    status.get("clusterId") + " (" + status.get("activeClusterIds") + ")");
        }
        Object pool = status.get("jdbcPool");
        if (pool instanceof Map<?, ?> p) {
            Map<String, Object> jdbc = (Map<String, Object>) p;
            row(out, "JDBC pool", jdbc.get("url"));
            row(out, "Connections active / idle / max", jdbc.get("active") + " / " + jdbc.get("idle") + " / "
                    + jdbc.get("maxActive"));
            row(out, "Threads waiting for a connection", jdbc.get("waiting"));
            row(out, "Connections borrowed so far", jdbc.get("borrowed"));
        }
        row(out, "Database round trips so far", status.get("dbRoundTrips"));
        out.println("</table>");
    }

    private static void row(PrintWriter out, String name, Object value) {
        // Text content only (no attribute values), so escapeHtml4's set (&, <, >, ") is enough.
        out.println("<tr><td>" + name + "</td><td>" + escapeHtml4(String.valueOf(value)) + "</td></tr>");
    }

    Map<String, Object> status() {
        Map<String, Object> status = describe(documentStore() ? repository.getDescriptor(CLUSTER_VIEW) : null,
                pools(ManagementFactory.getPlatformMBeanServer()));
        status.put("dbRoundTrips", roundTrips.total());
        return status;
    }

    private boolean documentStore() {
        try {
            return context.getAllServiceReferences(null, DOCUMENT_SERVICES) != null;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(DOCUMENT_SERVICES, e);
        }
    }

    /**
     * The status from the DocumentNodeStore's cluster view descriptor (null on segment-tar) and the data source
     * pools by name (the first one is the one reported: the feature has one, Oak's).
     */
    static Map<String, Object> describe(String clusterView, Map<String, Map<String, Object>> pools) {
        Map<String, Object> status = Json.object();
        Map<String, Object> oakPool = pools.isEmpty() ? null : pools.values().iterator().next();
        if (clusterView == null) {
            status.put("store", "segment");
            status.put("clusterId", null);
        } else {
            String url = oakPool == null ? "" : String.valueOf(oakPool.get("url"));
            status.put("store", url.startsWith("jdbc:postgresql:") ? "postgres" : "document");
            Matcher me = ME.matcher(clusterView);
            status.put("clusterId", me.find() ? Integer.valueOf(me.group(1)) : null);
            status.put("activeClusterIds", activeIds(clusterView));
        }
        if (oakPool != null) {
            status.put("jdbcPool", oakPool);
        }
        return status;
    }

    private static List<Integer> activeIds(String clusterView) {
        List<Integer> ids = new ArrayList<>();
        Matcher active = ACTIVE.matcher(clusterView);
        if (active.find()) {
            for (String id : active.group(1).split(",")) {
                if (!id.isBlank()) {
                    ids.add(Integer.valueOf(id.trim()));
                }
            }
        }
        return ids;
    }

    /** A JDBC URL may carry credentials in its parameters ({@code ?password=}): the status shows none. */
    static String withoutQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
    }

    /** The pools of the Sling data sources, by data source name: what is borrowed, idle and waited for now. */
    static Map<String, Map<String, Object>> pools(MBeanServer server) {
        Map<String, Map<String, Object>> pools = new java.util.LinkedHashMap<>();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(POOL_MBEANS), null);
            for (ObjectName name : names) {
                Map<String, Object> pool = Json.object();
                pool.put("url", withoutQuery(String.valueOf(server.getAttribute(name, "Url"))));
                pool.put("active", server.getAttribute(name, "Active"));
                pool.put("idle", server.getAttribute(name, "Idle"));
                pool.put("waiting", server.getAttribute(name, "WaitCount"));
                pool.put("maxActive", server.getAttribute(name, "MaxActive"));
                pool.put("borrowed", server.getAttribute(name, "BorrowedCount"));
                String key = name.getKeyProperty("name");
                pools.put(key.startsWith("\"") ? ObjectName.unquote(key) : key, pool);
            }
        } catch (JMException | IllegalArgumentException e) {
            // A pool that went away between query and read: report what was read.
        }
        return pools;
    }
}
