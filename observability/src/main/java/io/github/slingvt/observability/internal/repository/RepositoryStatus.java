package io.github.slingvt.observability.internal.repository;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;

import javax.jcr.Repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import io.github.slingvt.observability.api.ConsoleSection;

/**
 * What the repository under the workload is: the node store, this instance's Oak cluster id and the ids holding a
 * lease, the figures of the JDBC pool Oak's RDB store draws on, and the database round trips counted so far (when
 * the bundle jdbc-round-trips counts them). Printed as the web console status {@code slingvt-repository} (JSON, text
 * and HTML; {@code ./sling-vt status} shows it under {@code "repository"}) and as the section "Repository and JDBC
 * pool" of the console page "Virtual Threads".
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

    /**
     * Oak's DocumentNodeStore registers its services (node store, MBeans through Oak's OSGi whiteboard) from this
     * package; segment-tar has none of them. The cluster view cannot tell the two apart: segment-tar publishes one
     * too (a cluster of one).
     */
    static final String DOCUMENT_SERVICES = "(objectClass=org.apache.jackrabbit.oak.plugins.document.*)";

    private final Repository repository;
    private final BundleContext context;
    /** {@code null} without the bundle jdbc-round-trips: the store and pool are shown all the same. */
    private final RoundTripCount roundTrips;

    @Activate
    public RepositoryStatus(@Reference Repository repository, BundleContext context) {
        this.repository = repository;
        this.context = context;
        this.roundTrips = RoundTripCount.open(context);
    }

    @Deactivate
    void deactivate() {
        if (roundTrips != null) {
            roundTrips.close();
        }
    }

    @Override
    public void print(PrintWriter out, Format format, boolean isZip) {
        ObjectNode status = status();
        if (format == Format.JSON) {
            out.print(status.toString());
        } else if (format == Format.HTML) {
            printHtml(out, status);
        } else {
            status.properties().forEach(e -> out.println(e.getKey() + ": "
                    + (e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString())));
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
    static void printHtml(PrintWriter out, JsonNode status) {
        out.println("<table class='nicetable' id='slingvt-repository'>");
        row(out, "Store", status.path("store").asText());
        if (status.has("activeClusterIds")) {
            row(out, "Oak cluster id (ids holding a lease)",
                    status.path("clusterId").asText() + " (" + ids(status.path("activeClusterIds")) + ")");
        }
        JsonNode jdbc = status.path("jdbcPool");
        if (jdbc.isObject()) {
            row(out, "JDBC pool", jdbc.path("url").asText());
            row(out, "Connections active / idle / max", jdbc.path("active").asText() + " / "
                    + jdbc.path("idle").asText() + " / " + jdbc.path("maxActive").asText());
            row(out, "Threads waiting for a connection", jdbc.path("waiting").asText());
            row(out, "Connections borrowed so far", jdbc.path("borrowed").asText());
        }
        JsonNode trips = status.path("dbRoundTrips");
        row(out, "Database round trips so far", trips.isNumber() ? trips.asText()
                : "not counted (bundle jdbc-round-trips not installed)");
        out.println("</table>");
    }

    private static String ids(JsonNode array) {
        StringBuilder text = new StringBuilder("[");
        array.forEach(id -> text.append(text.length() > 1 ? ", " : "").append(id.asText()));
        return text.append(']').toString();
    }

    private static void row(PrintWriter out, String name, String value) {
        // Text content only (no attribute values), so escapeHtml4's set (&, <, >, ") is enough.
        out.println("<tr><td>" + name + "</td><td>" + escapeHtml4(value) + "</td></tr>");
    }

    ObjectNode status() {
        ObjectNode status = RepositoryFacts.describe(documentStore() ? repository.getDescriptor(CLUSTER_VIEW) : null,
                RepositoryFacts.pools(ManagementFactory.getPlatformMBeanServer()));
        Long trips = roundTrips == null ? null : roundTrips.get();
        if (trips != null) {
            status.put("dbRoundTrips", trips);
        } else {
            status.putNull("dbRoundTrips");
        }
        return status;
    }

    private boolean documentStore() {
        try {
            return context.getAllServiceReferences(null, DOCUMENT_SERVICES) != null;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(DOCUMENT_SERVICES, e);
        }
    }
}
