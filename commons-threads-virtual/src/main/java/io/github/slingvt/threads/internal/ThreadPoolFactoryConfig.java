package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPools;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

/**
 * The factory configuration Apache Sling Commons Threads reads for named pools, same PID and properties, so that
 * existing configurations keep working when this bundle replaces Sling's. Defaults are those a Sling pool gets when
 * a property is absent (ModifiableThreadPoolConfig's), which is why shutdownGraceful defaults to true here.
 */
@ObjectClassDefinition(
        id = ThreadPoolFactoryConfig.FACTORY_PID,
        name = "Apache Sling Thread Pool Configuration (Sling VT)",
        description = "A named thread pool, handed out by ThreadPoolManager.get(name). Whether it runs on virtual or "
                + "platform threads is decided by " + VirtualThreadPoolsConfig.PID + ".")
public @interface ThreadPoolFactoryConfig {

    String FACTORY_PID = ThreadPools.FACTORY_PID;

    @AttributeDefinition(name = "Name", description = "The unique name of this thread pool, as passed to "
            + "ThreadPoolManager.get(name).")
    String name();

    @AttributeDefinition(name = "Min pool size", description = "Kernel mode: threads kept alive when idle. "
            + "Ignored in virtual mode, where no thread outlives its task.")
    int minPoolSize() default 5;

    @AttributeDefinition(name = "Max pool size", description = "Kernel mode: the maximum number of threads. Virtual "
            + "mode: the maximum number of tasks running at once (a permit is taken before each virtual thread is "
            + "created). Below 0 means unlimited. Reported unchanged by getConfiguration(), where Quartz reads it.")
    int maxPoolSize() default 5;

    @AttributeDefinition(name = "Queue size", description = "How many tasks may wait when all max pool size slots are "
            + "busy: -1 (or below 0) = unlimited, 0 = none (the block policy decides at once).")
    int queueSize() default -1;

    @AttributeDefinition(name = "Keep alive time (ms)", description = "Kernel mode: how long a thread above min "
            + "pool size may stay idle. Ignored in virtual mode.")
    long keepAliveTime() default 60000L;

    @AttributeDefinition(name = "Block policy", description = "What happens to a task when all slots are busy and the "
            + "queue is full: ABORT throws RejectedExecutionException, DISCARD drops the task, DISCARDOLDEST drops the "
            + "oldest queued task and queues this one, RUN runs it on the submitting thread.",
            options = {
                @Option(label = "Abort", value = "ABORT"),
                @Option(label = "Discard", value = "DISCARD"),
                @Option(label = "Discard oldest", value = "DISCARDOLDEST"),
                @Option(label = "Run", value = "RUN")
            })
    String blockPolicy() default "RUN";

    @AttributeDefinition(name = "Shutdown graceful", description = "On shutdown, let running and queued tasks finish "
            + "(true) or drop queued tasks and interrupt running ones (false).")
    boolean shutdownGraceful() default true;

    @AttributeDefinition(name = "Daemon threads", description = "Kernel mode: create daemon threads. Virtual threads "
            + "are always daemon threads; the value is accepted and reported.")
    boolean daemon() default false;

    @AttributeDefinition(name = "Shutdown wait time (ms)", description = "How long a shutdown waits for tasks to "
            + "finish before it interrupts them. A value below 1 means no waiting.")
    int shutdownWaitTime() default -1;

    @AttributeDefinition(name = "Priority", description = "Kernel mode: priority of the threads. Virtual threads "
            + "always have normal priority; the value is accepted and reported.",
            options = {
                @Option(label = "Norm", value = "NORM"),
                @Option(label = "Min", value = "MIN"),
                @Option(label = "Max", value = "MAX")
            })
    String priority() default "NORM";
}
