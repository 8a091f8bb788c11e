package io.github.slingvt.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;

import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

@ExtendWith(SlingContextExtension.class)
public class SlowServletTest {

    private final SlingContext context = new SlingContext();

    private MockSlingJakartaHttpServletResponse get(String... params) throws Exception {
        context.jakartaRequest().setParameterMap(Fixtures.params(params));
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        new SlowServlet(AnonymousLimits.NONE).service(context.jakartaRequest(), response);
        return response;
    }

    @Test
    void waitsTheRequestedDelay() throws Exception {
        MockSlingJakartaHttpServletResponse response = get("delay", "60");
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getInt("delay")).isEqualTo(60);
        assertThat(body.getJsonNumber("ms").doubleValue()).isGreaterThanOrEqualTo(60);
        assertThat(body.getJsonObject("thread").getBoolean("virtual")).isFalse();
    }

    @Test
    void noDelayAnswersAtOnce() throws Exception {
        assertThat(Fixtures.json(get().getOutputAsString()).getInt("delay")).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "-1", "60001", "2.5"})
    void invalidDelayIsA400(String delay) throws Exception {
        MockSlingJakartaHttpServletResponse response = get("delay", delay);
        assertThat(response.getStatus()).isEqualTo(400);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getString("parameter")).isEqualTo("delay");
        assertThat(body.getString("allowed")).isEqualTo("0-60000");
        assertThat(body.getString("value")).isEqualTo(delay);
    }
}
