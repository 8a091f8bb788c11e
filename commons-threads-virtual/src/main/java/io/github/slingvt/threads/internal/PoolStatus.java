package io.github.slingvt.threads.internal;

import java.util.Collection;

/**
 * A snapshot of one pool. {@code running} and {@code queued} include executors still draining after a switch;
 * {@code completed} and {@code rejected} count since the pool was created, across switches.
 */
record PoolStatus(String name, PoolMode mode, int running, int queued, long completed, long rejected,
        int maxPoolSize, int draining) {

    /** {@code {"<name>":{"mode":"virtual","running":0,...},...}} on one line, as {@code ./sling-vt status} reads it. */
    static String toJson(Collection<PoolStatus> statuses) {
        StringBuilder sb = new StringBuilder("{");
        String sep = "";
        for (PoolStatus s : statuses) {
            sb.append(sep);
            appendString(sb, s.name);
            sb.append(":{\"mode\":\"").append(s.mode.label())
                    .append("\",\"running\":").append(s.running)
                    .append(",\"queued\":").append(s.queued)
                    .append(",\"completed\":").append(s.completed)
                    .append(",\"rejected\":").append(s.rejected)
                    .append(",\"maxPoolSize\":").append(s.maxPoolSize)
                    .append('}');
            sep = ",";
        }
        return sb.append('}').toString();
    }

    static void appendString(StringBuilder sb, String value) {
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
