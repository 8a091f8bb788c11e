/**
 * The demo page's model as HTL scripts see it. Exported because a script names it in {@code data-sly-use}: HTL
 * loads the class through Sling's dynamic class loader, which sees exported packages only. The implementation
 * stays in {@code .internal}.
 */
@Export
@Version("1.0.0")
package io.github.slingvt.demoapp;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
