package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPools;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

@ObjectClassDefinition(
        name = "Sling VT - Thread pools",
        description = "Decides which Sling thread pools (ThreadPoolManager.get(name) / create(config, label)) run their "
                + "tasks on virtual threads and which on platform (kernel) threads. Changes apply live: a pool that "
                + "switches lets its running and queued tasks finish where they are and runs new tasks on the new kind. "
                + "The size, queue and policy of each pool come from the Apache Sling Thread Pool configurations "
                + "(factory PID org.apache.sling.commons.threads.impl.DefaultThreadPool.factory).")
public @interface VirtualThreadPoolsConfig {

    String PID = ThreadPools.CONFIGURATION_PID;

    @AttributeDefinition(
            name = "Default mode",
            description = "Mode of every pool that has no entry in 'Pool modes'. virtual: each task runs on a new "
                    + "virtual thread, at most maxPoolSize at a time. kernel: a pool of platform threads, exactly as "
                    + "Apache Sling Commons Threads runs it.",
            options = {
                @Option(label = "virtual", value = "virtual"),
                @Option(label = "kernel", value = "kernel")
            })
    String defaultMode() default "virtual";

    @AttributeDefinition(
            name = "Pool modes",
            description = "Per-pool overrides, one 'name=virtual' or 'name=kernel' per entry. The name is the pool name "
                    + "(for example default, oak, org-apache-sling-event) or, for an anonymous pool made with "
                    + "ThreadPoolManager.create(config, label), its label (for example 'Apache Sling Job Thread Pool'). "
                    + "A name may appear once.")
    String[] poolModes() default {};
}
