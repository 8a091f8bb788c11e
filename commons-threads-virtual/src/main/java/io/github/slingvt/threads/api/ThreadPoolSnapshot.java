package io.github.slingvt.threads.api;

/**
 * One pool in use at one moment. {@code running} and {@code queued} include executors still draining after a
 * switch; {@code completed} and {@code rejected} count since the pool was created, across switches.
 *
 * @param maxPoolSize {@link Integer#MAX_VALUE} when unlimited
 * @param draining executors of the previous mode still finishing their tasks after a switch
 */
public record ThreadPoolSnapshot(String name, ThreadPoolMode mode, int running, int queued, long completed,
        long rejected, int maxPoolSize, int draining) {
}
