/**
 * What other bundles may offer to Sling VT's observability bundle: a {@link
 * io.github.slingvt.observability.api.ConsoleSection} appears on the web console page "Virtual Threads" below the
 * threading figures (the bundle's own repository and JDBC pool section is one).
 */
@Export
@Version("1.0.0")
package io.github.slingvt.observability.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
