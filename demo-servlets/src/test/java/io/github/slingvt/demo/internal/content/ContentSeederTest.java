package io.github.slingvt.demo.internal.content;

import io.github.slingvt.demo.internal.Fixtures;
import io.github.slingvt.demo.internal.StatusServlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.json.JsonObject;

import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.serviceusermapping.ServiceUserMapped;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.internal.ConfigGuardService;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The seeder as an OSGi component (sling-mock reads the DS metadata bnd generated) and the status servlet. */
@ExtendWith(SlingContextExtension.class)
public class ContentSeederTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);

    private final ConfigGuardService guard = new ConfigGuardService();

    private ContentSeeder activate(Object... properties) {
        context.registerService(ConfigGuard.class, guard);
        context.registerService(ServiceUserMapped.class, new ServiceUserMapped() {
        }, ServiceUserMapped.SUBSERVICENAME, DemoContent.SUBSERVICE_SEEDER);
        return context.registerInjectActivateService(ContentSeeder.class, properties);
    }

    private static void awaitState(ContentSeeder seeder, SeedProgress.State state) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (seeder.progress().state() != state && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(seeder.progress().state()).isEqualTo(state);
    }

    @Test
    void seedsInTheBackgroundAndTheStatusSaysSo() throws Exception {
        Fixtures.repoinit(context);
        ContentSeeder seeder = activate("folders", 2, "nodesPerFolder", 3, "batchSize", 4);
        awaitState(seeder, SeedProgress.State.COMPLETE);

        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        new StatusServlet(seeder).service(context.jakartaRequest(), response);
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject status = Fixtures.json(response.getOutputAsString());
        assertThat(status.getBoolean("seeded")).isTrue();
        assertThat(status.getInt("nodes")).isEqualTo(6);
        assertThat(status.getInt("folders")).isEqualTo(2);
        assertThat(status.getString("state")).isEqualTo("COMPLETE");
        assertThat(status.getInt("nodesCreated")).isEqualTo(6);
        assertThat(status.getJsonObject("binaries").getInt("10m")).isEqualTo(10 * 1024 * 1024);
        assertThat(status.getJsonObject("configured").getInt("nodes")).isEqualTo(6);
    }

    @Test
    void withoutTheRootItRetriesAndReportsWhy() throws Exception {
        ContentSeeder seeder = activate("folders", 1, "nodesPerFolder", 1);
        awaitState(seeder, SeedProgress.State.RETRYING);
        Map<String, Object> status = seeder.status(context.resourceResolver());
        assertThat(status.get("seeded")).isEqualTo(false);
        assertThat((String) status.get("lastError")).contains(DemoContent.ROOT);

        Fixtures.repoinit(context);
        awaitState(seeder, SeedProgress.State.COMPLETE);
        assertThat(seeder.status(context.resourceResolver()).get("seeded")).isEqualTo(true);
    }

    @Test
    void disabledSeederWritesNothing() throws Exception {
        Fixtures.repoinit(context);
        ContentSeeder seeder = activate("enabled", false);
        Thread.sleep(100);
        assertThat(seeder.progress().state()).isEqualTo(SeedProgress.State.DISABLED);
        Map<String, Object> status = seeder.status(context.resourceResolver());
        assertThat(status.get("seeded")).isEqualTo(false);
        assertThat(status.get("state")).isEqualTo("DISABLED");
        assertThat(context.resourceResolver().getResource(DemoContent.BINARIES)).isNull();
    }

    @Test
    void aRefusedConfigurationWritesNothingSoThatNoTreeIsPrunedToTheDefaults() throws Exception {
        Fixtures.repoinit(context);
        ContentSeeder seeder = activate("folders", 0, "nodesPerFolder", "lots");

        assertThat(seeder.progress().state()).isEqualTo(SeedProgress.State.REFUSED);
        assertThat(guard.problems()).extracting(p -> p.property() + "=" + p.value())
                .containsExactly("folders=0", "nodesPerFolder=lots");
        Thread.sleep(100);
        assertThat(context.resourceResolver().getResource(DemoContent.BINARIES)).isNull();
        assertThat(seeder.status(context.resourceResolver()).get("state")).isEqualTo("REFUSED");
    }
}
