package io.github.slingvt.demoapp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.apache.sling.testing.mock.sling.servlet.MockSlingJakartaHttpServletRequest;
import org.apache.sling.testing.mock.sling.servlet.MockSlingJakartaHttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.slingvt.config.internal.ConfigGuardService;

@ExtendWith(SlingContextExtension.class)
class DemoPageFilterTest {

    private final SlingContext context = new SlingContext();
    private boolean passedOn;

    @Test
    void goodParametersReachThePage() throws Exception {
        assertThat(filter(Map.of(), "reads", "200", "delay", "1000").getStatus()).isEqualTo(200);
        assertThat(passedOn).isTrue();
    }

    @Test
    void aBadParameterIs400NamingItAndItsRange() throws Exception {
        MockSlingJakartaHttpServletResponse response = filter(Map.of(), "reads", "12", "delay", "soon");
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getOutputAsString()).contains("delay=soon").contains("from 0 to 10000");
        assertThat(passedOn).isFalse();
    }

    @Test
    void heavyAnonymousWorkIs403AndALoggedInUserGetsTheFullRange() throws Exception {
        MockSlingJakartaHttpServletResponse anonymous = filter(Map.of(), "reads", "201");
        assertThat(anonymous.getStatus()).isEqualTo(403);
        assertThat(anonymous.getOutputAsString()).contains("reads=201").contains("anonymous limit 200");
        assertThat(passedOn).isFalse();

        assertThat(filter(Map.of(), "delay", "1001").getStatus()).isEqualTo(403);

        context.jakartaRequest().setRemoteUser("admin");
        assertThat(filter(Map.of(), "reads", "10000", "delay", "10000").getStatus()).isEqualTo(200);
        assertThat(passedOn).isTrue();
    }

    @Test
    void otherResourcesPassUnchecked() throws Exception {
        DemoPageFilter filter = new DemoPageFilter(new ConfigGuardService(), Map.of());
        context.create().resource("/content/other", "sling:resourceType", "other/type");
        context.currentResource("/content/other");
        context.jakartaRequest().setParameterMap(Map.of("reads", "lots"));
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        filter.doFilter(context.jakartaRequest(), response, (req, res) -> passedOn = true);
        assertThat(passedOn).isTrue();
        assertThat(response.getStatus()).isEqualTo(200);
    }

    @Test
    void theAnonymousLimitsAreConfigurable() throws Exception {
        Map<String, Object> config = Map.of("anonymousMaxReads", 10_000, "anonymousMaxDelay", 5);
        assertThat(filter(config, "reads", "10000").getStatus()).isEqualTo(200);
        assertThat(filter(config, "delay", "6").getStatus()).isEqualTo(403);
    }

    @Test
    void aBadConfigurationKeepsTheDefaults() throws Exception {
        Map<String, Object> config = Map.of("anonymousMaxReads", "lots");
        assertThat(filter(config, "reads", "200").getStatus()).isEqualTo(200);
        assertThat(filter(config, "reads", "201").getStatus()).isEqualTo(403);
    }

    private MockSlingJakartaHttpServletResponse filter(Map<String, Object> config, String... parameters)
            throws Exception {
        DemoPageFilter filter = new DemoPageFilter(new ConfigGuardService(), config);
        if (context.resourceResolver().getResource("/content/page") == null) {
            context.create().resource("/content/page", "sling:resourceType", DemoPageFilter.RESOURCE_TYPE);
        }
        context.currentResource("/content/page");
        MockSlingJakartaHttpServletRequest request = context.jakartaRequest();
        Map<String, Object> parameterMap = new HashMap<>();
        for (int i = 0; i + 1 < parameters.length; i += 2) {
            parameterMap.put(parameters[i], parameters[i + 1]);
        }
        request.setParameterMap(parameterMap);
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        passedOn = false;
        filter.doFilter(request, response, (req, res) -> passedOn = true);
        return response;
    }
}
