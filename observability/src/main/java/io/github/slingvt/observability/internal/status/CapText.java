package io.github.slingvt.observability.internal.status;

import io.github.slingvt.http.api.HttpThreadsSnapshot;

/** The admission cap as the console page and the text status say it. */
public final class CapText {

    private CapText() {
    }

    /** "unbounded", "150", or "auto (now 412)". */
    public static String of(HttpThreadsSnapshot s) {
        if (s.adaptive()) {
            return "auto (now " + s.concurrencyLimit() + ")";
        }
        return s.bounded() ? Integer.toString(s.maxConcurrentRequests()) : "unbounded";
    }
}
