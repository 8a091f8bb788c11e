package io.github.slingvt.demo.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - Demo servlets",
        description = "Workload servlets for benchmarks and reliability tests: /bin/vt/work.json, /bin/vt/work.bin, "
                + "/bin/vt/work-async.json, /bin/vt/slow.json and /bin/vt/status.json. A demo, not for production "
                + "exposure: anyone who may call them can make this instance read, write, wait and hash.")
public @interface DemoServletsConfig {

    String PID = "io.github.slingvt.demo.DemoServlets";

    @AttributeDefinition(
            name = "Enabled",
            description = "When false, none of the servlets is registered (the paths answer 404). "
                    + "Content seeding is configured separately.")
    boolean enabled() default true;

    @AttributeDefinition(
            name = "Anonymous: max reads",
            description = "Most repository nodes an anonymous request may read (reads). Any web page can make a "
                    + "browser send anonymous GETs to this instance, so heavy work needs a logged-in user: above "
                    + "this, an anonymous request is answered 403. 0-100000; logged-in users get the full range.")
    long anonymousMaxReads() default 1_000;

    @AttributeDefinition(
            name = "Anonymous: max wait (ms)",
            description = "Longest idleDelay (work.json) or delay (slow.json) an anonymous request may ask for, in "
                    + "milliseconds; above it, 403. 0-60000.")
    long anonymousMaxIdleDelay() default 1_000;

    @AttributeDefinition(
            name = "Anonymous: max file length (bytes)",
            description = "Largest fileLength an anonymous request may ask for; above it, 403. 0-104857600.")
    long anonymousMaxFileLength() default 1_048_576;

    @AttributeDefinition(
            name = "Anonymous: max CPU iterations",
            description = "Most SHA-256 rounds (cpuIterations) an anonymous request may ask for; above it, 403. "
                    + "0-1000000.")
    long anonymousMaxCpuIterations() default 1_000;

    @AttributeDefinition(
            name = "Anonymous: max fanout",
            description = "Most downstream calls (fanout) an anonymous request may make; 0 (the default) means fanout "
                    + "needs a logged-in user. 0-100. A benchmark or lab instance that nobody else can reach may raise "
                    + "all five limits to the full ranges, so that its load needs no login per request.")
    long anonymousMaxFanout() default 0;
}
