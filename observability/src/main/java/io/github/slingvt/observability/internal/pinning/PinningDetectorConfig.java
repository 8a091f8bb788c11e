package io.github.slingvt.observability.internal.pinning;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - virtual thread pinning detector",
        description = "Streams the JVM's own JFR event jdk.VirtualThreadPinned from inside the instance: counts virtual "
                + "threads pinned to their carrier longer than a threshold, keeps the most frequent stacks (console "
                + "page Virtual Threads, status printer, JMX) and logs each distinct stack once at WARN.")
public @interface PinningDetectorConfig {

    String PID = "io.github.slingvt.http.PinningDetector";

    @AttributeDefinition(
            name = "Enabled",
            description = "Stream jdk.VirtualThreadPinned events. When off, nothing is recorded and the count stays as it is.")
    boolean enabled() default true;

    @AttributeDefinition(
            name = "Threshold (ms)",
            description = "Only pins that last at least this long are recorded (JFR's own default is 20 ms). 1 to 60000.")
    long thresholdMillis() default 20;

    @AttributeDefinition(
            name = "Max stacks",
            description = "How many distinct pinned stacks are kept with their counts; the least frequent go first. 1 to 1000.")
    int maxStacks() default 20;
}
