/**
 * The demo content below {@code /content/vt-demo}: its shape, the background seeder with its progress, the seeded
 * binaries and the sweep of scratch writes.
 */
package io.github.slingvt.demo.internal.content;
