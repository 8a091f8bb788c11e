package io.github.slingvt.observability.internal.health;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - request threads health check",
        description = "Felix health check: WARN or CRITICAL when requests rejected by admission control (503) or "
                + "virtual threads pinned to their carrier (pinning detector) exceed a rate per minute over the last "
                + "interval; OK otherwise.")
public @interface ThreadingHealthCheckConfig {

    String PID = "io.github.slingvt.http.ThreadingHealthCheck";

    @AttributeDefinition(name = "Name", description = "Name of the health check (service property hc.name).")
    String hc_name() default ThreadingHealthCheck.DEFAULT_NAME;

    @AttributeDefinition(name = "Tags", description = "Tags to select the check by (service property hc.tags).")
    String[] hc_tags() default {"slingvt"};

    @AttributeDefinition(
            name = "Interval (s)",
            description = "Rates are computed over about this many seconds before each run (at least this long). 10 to 86400.")
    long intervalSeconds() default 300;

    @AttributeDefinition(
            name = "Rejected per minute: WARN",
            description = "WARN when more requests than this per minute were rejected (503) over the interval.")
    double rejectedPerMinuteWarn() default 10;

    @AttributeDefinition(
            name = "Rejected per minute: CRITICAL",
            description = "CRITICAL when more requests than this per minute were rejected (503) over the interval.")
    double rejectedPerMinuteCritical() default 100;

    @AttributeDefinition(
            name = "Pinned per minute: WARN",
            description = "WARN when more pinned virtual threads than this per minute were detected over the interval "
                    + "(pins shorter than the detector's threshold are not counted). The default 1 lets one-off pins "
                    + "pass (a class loaded for the first time through a woven class loader can pin once); 0 warns "
                    + "on any pin.")
    double pinnedPerMinuteWarn() default 1;

    @AttributeDefinition(
            name = "Pinned per minute: CRITICAL",
            description = "CRITICAL when more pinned virtual threads than this per minute were detected over the interval.")
    double pinnedPerMinuteCritical() default 10;
}
