package io.github.slingvt.demo.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;

import jakarta.servlet.Servlet;

import org.apache.sling.commons.scheduler.Scheduler;
import org.apache.sling.event.jobs.JobManager;
import org.apache.sling.event.jobs.consumer.JobConsumer;
import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.internal.ConfigGuardService;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.ServiceReference;

@ExtendWith(SlingContextExtension.class)
public class JobProbeRegistrarTest {

    private final SlingContext context = new SlingContext();

    private static <T> T unused(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> switch (m.getName()) {
            case "hashCode" -> System.identityHashCode(p);
            case "equals" -> p == a[0];
            case "toString" -> type.getSimpleName() + " stub";
            default -> throw new UnsupportedOperationException(m.getName());
        }));
    }

    @BeforeEach
    void dependencies() {
        context.registerService(ConfigGuard.class, new ConfigGuardService());
        context.registerService(Scheduler.class, unused(Scheduler.class));
        context.registerService(JobManager.class, unused(JobManager.class));
    }

    @Test
    void enabledRegistersTheServletAndTheConsumer() throws Exception {
        JobProbeRegistrar registrar = context.registerInjectActivateService(JobProbeRegistrar.class);
        assertThat(registrar.registrationCount()).isEqualTo(2);
        ServiceReference<Servlet> servlet = context.bundleContext().getServiceReference(Servlet.class);
        assertThat(servlet.getProperty("sling.servlet.paths")).isEqualTo("/bin/vt/jobs");
        assertThat((String[]) servlet.getProperty("sling.servlet.extensions")).containsExactly("json");
        ServiceReference<JobConsumer> consumer = context.bundleContext().getServiceReference(JobConsumer.class);
        assertThat(consumer.getProperty(JobConsumer.PROPERTY_TOPICS)).isEqualTo("io/github/slingvt/demo/jobprobe");
        registrar.deactivate();
        assertThat(registrar.registrationCount()).isZero();
        assertThat(context.bundleContext().getServiceReference(JobConsumer.class)).isNull();
    }

    @Test
    void disabledRegistersNothing() {
        JobProbeRegistrar registrar = context.registerInjectActivateService(JobProbeRegistrar.class, "enabled", false);
        assertThat(registrar.registrationCount()).isZero();
        assertThat(context.bundleContext().getServiceReference(JobConsumer.class)).isNull();
    }
}
