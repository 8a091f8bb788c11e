package io.github.slingvt.observability.internal.metrics;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The live series for the console page; a service inside this bundle, there while metrics are enabled. */
public interface LiveMetrics {

    /** The sampled points, oldest first; see {@link LiveSeries#toJson(long)}. */
    ObjectNode series();
}
