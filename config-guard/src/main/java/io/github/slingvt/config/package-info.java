/**
 * Reading the OSGi configurations of the Sling VT bundles safely. Declarative Services converts a configuration
 * to a component property type before the component sees it; a value of the wrong type ({@code lots} where a
 * number belongs) then fails the activation, and the component silently ends in "failed activation". Components of
 * Sling VT therefore take the raw property map and read it through {@link io.github.slingvt.config.ConfigReader}
 * inside {@link io.github.slingvt.config.ConfigGuard#read}: every value of the wrong type, out of range or not
 * one of the options is refused with an ERROR that names the PID, the property, the value and what is allowed,
 * and the last accepted settings (the defaults at start) stay in force. The guard keeps the refusals for the
 * health check, the console page and the status JSON. {@link io.github.slingvt.config.ConfigUpdates} changes one
 * property of a bundle's own configuration and keeps the others.
 * <p>
 * 2.0: {@code ConfigReader} is an interface (it was a class with a public constructor); readers come from the guard
 * ({@link io.github.slingvt.config.ConfigGuard#reader}), so the implementation is no longer part of the API.
 */
@Export
@Version("2.0.0")
package io.github.slingvt.config;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
