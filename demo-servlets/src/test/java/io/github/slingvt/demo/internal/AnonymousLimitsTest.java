package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.http.Responses;
import io.github.slingvt.demo.internal.steps.Fanout;
import io.github.slingvt.demo.internal.steps.RepositorySteps;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.json.JsonObject;

import io.github.slingvt.config.ConfigReader;
import io.github.slingvt.config.internal.PropertyReader;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.servlethelpers.MockRequestPathInfo;
import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletRequest;
import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue #11, item 6: anonymous requests get light work only (any web page can make a browser send them); heavy work
 * and state changes need a logged-in user, and a state change from another site's page is refused.
 */
@ExtendWith(SlingContextExtension.class)
public class AnonymousLimitsTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);
    /** Closed with the test: the servlet's HTTP client for fanout calls. */
    private final Fanout fanout = new Fanout();

    @AfterEach
    void closeFanout() {
        fanout.close();
    }

    private MockSlingJakartaHttpServletResponse send(String method, String user, Map<String, String> headers,
            String... params) throws Exception {
        MockSlingJakartaHttpServletRequest request = context.jakartaRequest();
        request.setMethod(method);
        request.setRemoteUser(user);
        headers.forEach(request::addHeader);
        request.setParameterMap(Fixtures.params(params));
        ((MockRequestPathInfo) request.getRequestPathInfo()).setExtension("json");
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        WorkSteps steps = new WorkSteps(new RepositorySteps(context.getService(ResourceResolverFactory.class)), fanout,
                Fixtures.NO_ROUND_TRIPS);
        new WorkServlet(steps, AnonymousLimits.DEFAULTS).service(request, response);
        return response;
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({"reads,1001", "idleDelay,60000", "fileLength,1048577", "cpuIterations,1001", "fanout,1", "fanout,100"})
    void anonymousHeavyWorkIsA403NamingTheParameterAndItsLimit(String name, String value) throws Exception {
        for (String anonymous : new String[] {null, "anonymous"}) {
            MockSlingJakartaHttpServletResponse response = send("GET", anonymous, Map.of(), name, value);
            assertThat(response.getStatus()).as("GET %s=%s as %s", name, value, anonymous).isEqualTo(403);
            JsonObject body = Fixtures.json(response.getOutputAsString());
            assertThat(body.getString("parameter")).isEqualTo(name);
            assertThat(body.getString("error")).contains(name + "=" + value + " (anonymous limit")
                    .contains("needs a logged-in user");
        }
    }

    @Test
    void theIssuesExampleIsRefusedBeforeAnyWorkStarts() throws Exception {
        long start = System.nanoTime();
        MockSlingJakartaHttpServletResponse response = send("GET", null, Map.of(), "fanout", "100", "idleDelay", "60000");
        assertThat(response.getStatus()).isEqualTo(403);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms before the answer").isLessThan(30_000);
    }

    @Test
    void lightWorkStaysAnonymousAndHeavyWorkWorksLoggedIn() throws Exception {
        assertThat(send("GET", null, Map.of(), "cpuIterations", "1000").getStatus()).as("at the limit").isEqualTo(200);
        MockSlingJakartaHttpServletResponse admin = send("GET", "admin", Map.of(), "cpuIterations", "5000");
        assertThat(admin.getStatus()).as("logged in: %s", admin.getOutputAsString()).isEqualTo(200);
        assertThat(Fixtures.json(admin.getOutputAsString()).getJsonObject("cpuIterations").getInt("iterations"))
                .isEqualTo(5000);
    }

    @Test
    void aBadParameterIsStillA400ForAnonymous() throws Exception {
        assertThat(send("GET", null, Map.of(), "fanout", "101").getStatus()).isEqualTo(400);
    }

    @Test
    void limitsOutsideTheServletsRangesAreRefusedByTheConfiguration() {
        ConfigReader reader = new PropertyReader("pid", Map.of("anonymousMaxReads", -1L, "anonymousMaxFanout", 101L));
        AnonymousLimits limits = AnonymousLimits.read(reader);
        assertThat(reader.problems()).extracting(p -> p.property())
                .containsExactly("anonymousMaxReads", "anonymousMaxFanout");
        assertThat(limits.reads()).isEqualTo(AnonymousLimits.DEFAULTS.reads());
    }
}
