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
}
