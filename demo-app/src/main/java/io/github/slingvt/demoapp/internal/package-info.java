/** The demo page's Sling Model, its parameters and the filter that refuses bad or too heavy ones. */
package io.github.slingvt.demoapp.internal;
