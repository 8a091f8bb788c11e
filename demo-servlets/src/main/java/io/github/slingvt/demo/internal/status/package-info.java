/** The repository status (store, Oak cluster, JDBC pool, round trips) as status printer and console section. */
package io.github.slingvt.demo.internal.status;
