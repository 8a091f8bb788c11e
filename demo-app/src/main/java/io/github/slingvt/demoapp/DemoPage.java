package io.github.slingvt.demoapp;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One rendering of the demo page ({@code /content/vt-demo/page.html}): which repository nodes it read, how long it
 * waited on its downstream call, and on which kind of thread it ran. Adapted from the request by Sling Models.
 */
@ProviderType
public interface DemoPage {

    /** The page's {@code jcr:title}. */
    String getTitle();

    /** How many item nodes this rendering read (the {@code reads} parameter). */
    int getReads();

    /** The titles of the first items read, at most {@link #MAX_LISTED}, in the order read. */
    List<String> getItems();

    /** The downstream call's wait in milliseconds (the {@code delay} parameter). */
    long getDelay();

    /** {@code virtual} or {@code platform}: the kind of thread that built this model. */
    String getThreadKind();

    /** The name of that thread (empty for an unnamed virtual thread). */
    String getThreadName();

    /** Most item titles {@link #getItems()} lists. */
    int MAX_LISTED = 10;
}
