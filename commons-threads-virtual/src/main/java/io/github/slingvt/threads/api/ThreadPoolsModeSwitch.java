package io.github.slingvt.threads.api;

import java.io.IOException;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Switches every Sling thread pool without a per-pool mode, by storing {@code defaultMode} in this bundle's own
 * configuration ({@code poolModes} and every other property kept). Configuration Admin applies it
 * asynchronously; each pool then switches as the bundle documents (running tasks finish where they are).
 */
@ProviderType
public interface ThreadPoolsModeSwitch {

    /** @throws IOException if Configuration Admin cannot store the configuration */
    void switchDefaultMode(ThreadPoolMode mode) throws IOException;
}
