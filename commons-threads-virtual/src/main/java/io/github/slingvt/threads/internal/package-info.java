/**
 * The pool bundle's implementation, 16 classes in one package on purpose: the manager and its configuration
 * (VirtualThreadPoolManager, VirtualThreadPoolsConfig, PoolModeSettings, ThreadPoolDefinition, ThreadPoolFactoryConfig,
 * PoolDefinition, PoolDefinitions, PoolConfigs, PoolsModeSwitcher) and one pool with its two executors
 * (ManagedThreadPool, PoolExecutor, VirtualExecutor, KernelExecutor, PoolCounters, ThreadNames,
 * ExecutorRetiredException). A live switch hands tasks, counters and shutdown state between a pool and its
 * executors through package-private methods; a package boundary there would make those methods public to the
 * whole bundle without making anything clearer. What other bundles see is in {@code io.github.slingvt.threads.api}
 * and Sling's {@code org.apache.sling.commons.threads}.
 */
package io.github.slingvt.threads.internal;
