/**
 * What other bundles may program against in commons-threads-virtual beyond Sling's own
 * {@code org.apache.sling.commons.threads} API: a read-only view of the pools ({@link
 * io.github.slingvt.threads.api.ThreadPools}) and the switch of their default mode ({@link
 * io.github.slingvt.threads.api.ThreadPoolsModeSwitch}). Sling VT's observability bundle reads this bundle
 * through these services only.
 */
@Export
@Version("1.0.0")
package io.github.slingvt.threads.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
