package io.github.slingvt.threads.api;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/** The Sling thread pools of commons-threads-virtual as they are now. */
@ProviderType
public interface ThreadPools {

    /** The PID of the mode settings ({@code defaultMode}, {@code poolModes}), for links and messages. */
    String CONFIGURATION_PID = "io.github.slingvt.threads.VirtualThreadPools";

    /** The factory PID of Sling's own thread pool configurations, which this bundle reads unchanged. */
    String FACTORY_PID = "org.apache.sling.commons.threads.impl.DefaultThreadPool.factory";

    /** The mode settings in force, as one line of text. */
    String settings();

    /** The pools in use, by name. */
    List<ThreadPoolSnapshot> pools();

    /** The pool configurations, in the order they arrived (the last one of a name is in force). */
    List<ConfiguredPool> configuredPools();
}
