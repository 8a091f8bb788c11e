package io.github.slingvt.observability.api;

import java.io.PrintWriter;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A section of the web console page "Virtual Threads", registered as a service by any bundle. Sections appear in
 * the order of their {@code service.ranking} (highest first); a section that throws is replaced by its error, so
 * it cannot take the page down.
 */
@ConsumerType
public interface ConsoleSection {

    /** The section's header, plain text. */
    String title();

    /**
     * Writes the section's HTML in the web console's style ({@code nicetable} tables). The page is served to
     * console administrators; every dynamic text must be HTML-escaped by the implementation.
     */
    void printHtml(PrintWriter out);
}
