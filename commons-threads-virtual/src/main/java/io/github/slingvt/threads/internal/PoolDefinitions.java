package io.github.slingvt.threads.internal;

/**
 * What a {@link ThreadPoolDefinition} needs from the pool manager: hand over its pool configuration and take it
 * back. A service inside this bundle only (the package is not exported), so that the definitions depend on this
 * narrow interface and not on the manager's class.
 */
public interface PoolDefinitions {

    /** A factory configuration arrived or changed; {@code owner} identifies it until {@link #undefine}. */
    void define(Object owner, PoolDefinition definition);

    /**
     * A factory configuration went away.
     *
     * @param revert true if a pool in use should fall back to another definition of its name or Sling's defaults
     */
    void undefine(Object owner, boolean revert);
}
