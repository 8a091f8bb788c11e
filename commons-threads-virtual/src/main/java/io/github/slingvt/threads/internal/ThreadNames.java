package io.github.slingvt.threads.internal;

import java.util.Locale;

/** Thread names as Sling gives them, so that thread dumps and log patterns stay familiar. */
final class ThreadNames {

    private ThreadNames() {
    }

    /** {@code sling-<pool>-} for kernel threads: the prefix Sling's ExtendedThreadFactory uses. */
    static String kernelPrefix(String poolName) {
        return "sling-" + normalize(poolName) + "-";
    }

    /** {@code sling-<pool>-vt-}: tells virtual threads apart in a dump that also holds kernel ones. */
    static String virtualPrefix(String poolName) {
        return "sling-" + normalize(poolName) + "-vt-";
    }

    static String normalize(String poolName) {
        String name = poolName.toLowerCase(Locale.ENGLISH).replaceAll("\\s+", "-");
        for (String prefix : new String[] {"apache-sling-", "sling-"}) {
            if (name.startsWith(prefix)) {
                return name.substring(prefix.length());
            }
        }
        return name;
    }
}
