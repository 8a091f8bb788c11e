/**
 * How many database round trips the current thread has caused. Oak's RDB document store borrows one JDBC connection
 * from its {@code javax.sql.DataSource} for each query it sends, so the number of connections a thread borrowed is
 * the number of round trips it waited for. On a virtual request thread that is exactly one request's count: the demo
 * servlets report it per request, the benchmark per point.
 */
@Export
@Version("1.0.0")
package io.github.slingvt.jdbc;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
