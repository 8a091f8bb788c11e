package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_JSON;
import static io.github.slingvt.it.e2e.DemoServletsSupport.getOk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/**
 * {@code ./sling-vt run --feature lean} stays an option beside the starter feature: it starts with every bundle
 * active, serves the demo servlets on virtual threads, and ships none of the starter's application stack (no HTL,
 * so no demo page and no start page).
 */
class LeanFeatureE2EIT extends OwnInstanceTestSupport {

    @Test
    void leanFeatureServesTheDemoServletsOnVirtualThreadsWithoutTheStarterStack() throws InterruptedException {
        startSeeded(SlingInstance.builder("lean").lean().smallDemoTree().functionalChecksOnly());

        final JsonNode work = getOk(sling, WORK_JSON + "?reads=5&idleDelay=5");
        assertThat(work.at("/thread/virtual").asBoolean()).as("thread.virtual in %s", work).isTrue();

        final JsonNode bundles = DemoServletsSupport.json(sling.get("/system/console/bundles.json", true));
        assertThat(bundles.path("data")).as("bundles of the lean feature")
                .noneMatch(b -> b.path("symbolicName").asText().startsWith("org.apache.sling.scripting.sightly"))
                .noneMatch(b -> b.path("symbolicName").asText().equals("io.github.slingvt.demo-app"))
                .anyMatch(b -> b.path("symbolicName").asText().equals("io.github.slingvt.demo-servlets"));
        assertThat(sling.get(StarterFeatureE2EIT.PAGE).statusCode()).as("the demo page on the lean feature")
                .isEqualTo(404);
    }
}
