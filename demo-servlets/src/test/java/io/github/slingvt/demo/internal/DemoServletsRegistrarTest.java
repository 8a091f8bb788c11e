package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.content.ContentSeeder;
import io.github.slingvt.demo.internal.content.DemoContent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import jakarta.servlet.Servlet;

import org.apache.sling.serviceusermapping.ServiceUserMapped;
import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.internal.ConfigGuardService;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.ServiceReference;

@ExtendWith(SlingContextExtension.class)
public class DemoServletsRegistrarTest {

    private final SlingContext context = new SlingContext();

    @BeforeEach
    void dependencies() {
        context.registerService(ConfigGuard.class, new ConfigGuardService());
        context.registerService(io.github.slingvt.jdbc.RoundTrips.class, Fixtures.NO_ROUND_TRIPS);
        for (String subservice : List.of(DemoContent.SUBSERVICE_SEEDER, DemoContent.SUBSERVICE_WRITER)) {
            context.registerService(ServiceUserMapped.class, new ServiceUserMapped() {
            }, ServiceUserMapped.SUBSERVICENAME, subservice);
        }
        context.registerInjectActivateService(ContentSeeder.class, "enabled", false);
    }

    private List<ServiceReference<Servlet>> servlets() throws Exception {
        ServiceReference<?>[] refs = context.bundleContext().getServiceReferences(Servlet.class.getName(), null);
        return refs == null ? List.of() : Arrays.stream(refs).map(ref -> {
            @SuppressWarnings("unchecked")
            ServiceReference<Servlet> servlet = (ServiceReference<Servlet>) ref;
            return servlet;
        }).toList();
    }

    @Test
    void enabledRegistersAllServlets() throws Exception {
        DemoServletsRegistrar registrar = context.registerInjectActivateService(DemoServletsRegistrar.class);
        assertThat(registrar.registrationCount()).isEqualTo(4);
        List<ServiceReference<Servlet>> servlets = servlets();
        assertThat(servlets.stream().map(ref -> ref.getProperty("sling.servlet.paths")).filter(Objects::nonNull))
                .containsExactlyInAnyOrder("/bin/vt/work", "/bin/vt/slow", "/bin/vt/status");
        ServiceReference<Servlet> work = servlets.stream()
                .filter(ref -> "/bin/vt/work".equals(ref.getProperty("sling.servlet.paths"))).findFirst().orElseThrow();
        assertThat((String[]) work.getProperty("sling.servlet.extensions")).containsExactly("json", "bin");
        assertThat(work.getProperty("sling.servlet.paths.strict")).isEqualTo(true);
        ServiceReference<Servlet> async = servlets.stream()
                .filter(ref -> ref.getProperty("osgi.http.whiteboard.servlet.pattern") != null)
                .findFirst().orElseThrow();
        assertThat(async.getProperty("osgi.http.whiteboard.servlet.pattern")).isEqualTo("/bin/vt/work-async.json");
        assertThat(async.getProperty("osgi.http.whiteboard.servlet.asyncSupported")).isEqualTo(true);
        assertThat(async.getProperty("osgi.http.whiteboard.context.select"))
                .isEqualTo("(osgi.http.whiteboard.context.name=org.apache.sling)");

        registrar.deactivate();
        assertThat(servlets()).isEmpty();
    }

    @Test
    void disabledRegistersNothing() throws Exception {
        DemoServletsRegistrar registrar = context.registerInjectActivateService(DemoServletsRegistrar.class,
                "enabled", false);
        assertThat(registrar.registrationCount()).isZero();
        assertThat(servlets()).isEmpty();
    }
}
