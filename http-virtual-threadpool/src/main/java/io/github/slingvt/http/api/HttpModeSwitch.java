package io.github.slingvt.http.api;

import java.io.IOException;
import java.time.Duration;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Switches the HTTP request threads live, through the HTTP bundle's own configuration (so the switch survives a
 * restart and shows in the web console's configuration manager), keeping every other property. Requests in flight
 * finish on the thread they started on.
 */
@ProviderType
public interface HttpModeSwitch {

    /**
     * @param wait how long to wait for the mode to be in force
     * @return whether the mode is in force within {@code wait}; Configuration Admin applies it asynchronously
     * @throws IOException if Configuration Admin cannot store the configuration
     * @throws InterruptedException if interrupted while waiting
     */
    boolean switchTo(ThreadingMode mode, Duration wait) throws IOException, InterruptedException;
}
