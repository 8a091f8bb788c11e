package io.github.slingvt.threads.api;

/** One Apache Sling Thread Pool factory configuration as this bundle accepted it. */
public record ConfiguredPool(String name, String pid, int maxPoolSize, int queueSize, String blockPolicy) {
}
