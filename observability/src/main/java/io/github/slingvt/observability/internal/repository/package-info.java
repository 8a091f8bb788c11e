/**
 * The repository an instance runs on, for operators: the node store (segment-tar or Oak's DocumentNodeStore on which
 * database), this node's Oak cluster id and the ids holding a lease, the JDBC pool Oak's RDB store draws on, and the
 * database round trips counted so far; and, on a DocumentNodeStore, the health check and the 503 answer for a node
 * whose store Oak stopped after a lost cluster lease.
 */
package io.github.slingvt.observability.internal.repository;
