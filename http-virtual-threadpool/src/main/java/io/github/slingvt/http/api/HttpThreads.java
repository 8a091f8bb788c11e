package io.github.slingvt.http.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The HTTP request threading as it is now: the settings in force and the request counters. Registered by the
 * HTTP bundle for as long as its Jetty hook is active; reading it is cheap and never blocks a request.
 */
@ProviderType
public interface HttpThreads {

    /** The PID of the HTTP bundle's configuration, for links and messages that tell an operator what to change. */
    String CONFIGURATION_PID = "io.github.slingvt.http.VirtualThreads";

    /** Counters and settings read at one moment. */
    HttpThreadsSnapshot snapshot();
}
