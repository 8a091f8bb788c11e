package io.github.slingvt.jdbc.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - Counting data source",
        description = "A javax.sql.DataSource in front of a pool (for example the Sling data source of Oak's RDB store) "
                + "that counts, per thread, the connections borrowed from it: one per database round trip of Oak. "
                + "Oak binds the data source named 'oak'; name the pool differently and let this one take the name.")
public @interface CountingDataSourceConfig {

    String PID = "io.github.slingvt.jdbc.CountingDataSource";

    @AttributeDefinition(
            name = "Data source name",
            description = "The datasource.name this data source is registered with, which Oak's DocumentNodeStoreService "
                    + "looks up (dataSource.target, default (datasource.name=oak)).")
    String datasource_name() default "oak";

    @AttributeDefinition(
            name = "Pool",
            description = "Filter of the data source whose connections are counted, for example "
                    + "(datasource.name=oak-pool): the Sling data source pool.")
    String pool_target() default "(datasource.name=oak-pool)";
}
