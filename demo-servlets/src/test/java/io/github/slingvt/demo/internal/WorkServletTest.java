package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.content.DemoContent;
import io.github.slingvt.demo.internal.content.PseudoRandomInputStream;
import io.github.slingvt.demo.internal.steps.Fanout;
import io.github.slingvt.demo.internal.steps.LocalSteps;
import io.github.slingvt.demo.internal.steps.RepositorySteps;
import io.github.slingvt.demo.internal.steps.WorkRequestTest;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.json.JsonObject;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.api.wrappers.SlingJakartaHttpServletRequestWrapper;
import org.apache.sling.servlethelpers.MockRequestPathInfo;
import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The sync servlet against sling-mock's JCR mock: validation, each work step, and the failure answers. */
@ExtendWith(SlingContextExtension.class)
public class WorkServletTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);
    private Fanout fanout;
    private WorkServlet servlet;

    @BeforeEach
    void setUp() {
        fanout = new Fanout();
        servlet = servlet(Fixtures.NO_ROUND_TRIPS);
    }

    private WorkServlet servlet(io.github.slingvt.jdbc.RoundTrips roundTrips) {
        return new WorkServlet(new WorkSteps(new RepositorySteps(context.getService(ResourceResolverFactory.class)),
                fanout, roundTrips), AnonymousLimits.NONE);
    }

    @AfterEach
    void tearDown() {
        fanout.close();
    }

    private MockSlingJakartaHttpServletResponse get(String extension, String... params) throws Exception {
        return get(context.jakartaRequest(), extension, params);
    }

    /** A POST as the logged-in user {@code user}, or anonymous when {@code user} is null. */
    private MockSlingJakartaHttpServletResponse post(String user, String extension, String... params) throws Exception {
        context.jakartaRequest().setMethod("POST");
        context.jakartaRequest().setRemoteUser(user);
        return get(context.jakartaRequest(), extension, params);
    }

    private MockSlingJakartaHttpServletResponse get(SlingJakartaHttpServletRequest request, String extension,
            String... params) throws Exception {
        context.jakartaRequest().setParameterMap(Fixtures.params(params));
        ((MockRequestPathInfo) context.jakartaRequest().getRequestPathInfo()).setExtension(extension);
        MockSlingJakartaHttpServletResponse response = new MockSlingJakartaHttpServletResponse();
        servlet.service(request, response);
        return response;
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("io.github.slingvt.demo.internal.steps.WorkRequestTest#invalidValues")
    void everyInvalidValueIsA400NamingParameterAndRange(String name, String value, String reason) throws Exception {
        MockSlingJakartaHttpServletResponse response = get("json", name, value);
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentType()).startsWith("application/json");
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getString("error")).isEqualTo("invalid parameter");
        assertThat(body.getString("parameter")).isEqualTo(name);
        assertThat(body.getString("allowed")).isEqualTo("0-" + WorkRequestTest.CAPS.get(name));
        assertThat(body.getString("value")).isEqualTo(value);
        assertThat(body.getString("message")).contains(reason);
    }

    @Test
    void invalidValueIsA400ForTheBinaryVariantToo() throws Exception {
        MockSlingJakartaHttpServletResponse response = get("bin", "fileLength", "104857601");
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(Fixtures.json(response.getOutputAsString()).getString("parameter")).isEqualTo("fileLength");
    }

    @Test
    void noParametersDoNoWorkAndDescribeTheThread() throws Exception {
        MockSlingJakartaHttpServletResponse response = get("json");
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getString("mode")).isEqualTo("sync");
        assertThat(body.getJsonObject("thread").getBoolean("virtual")).isFalse();
        assertThat(body.getJsonObject("thread").getString("name")).isEqualTo(Thread.currentThread().getName());
        assertThat(body.getJsonObject("timings").keySet())
                .containsExactly("reads", "writes", "fileLength", "idleDelay", "cpuIterations", "fanout", "total");
        assertThat(body.getJsonObject("reads").getInt("nodes")).isZero();
    }

    @Test
    void onAVirtualThreadTheAnswerSaysVirtualTrue() throws Exception {
        AtomicReference<String> body = new AtomicReference<>();
        Thread thread = Thread.ofVirtual().name("vt-request").start(() -> {
            try {
                body.set(get("json").getOutputAsString());
            } catch (Exception e) {
                body.set(e.toString());
            }
        });
        thread.join();
        assertThat(body.get()).contains("\"virtual\":true").contains("\"name\":\"vt-request\"");
    }

    @Test
    void readsReadTheRequestedNumberOfNodesWithTheirProperties() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        JsonObject body = Fixtures.json(get("json", "reads", "30").getOutputAsString());
        JsonObject reads = body.getJsonObject("reads");
        assertThat(reads.getInt("nodes")).isEqualTo(30);
        assertThat(reads.getInt("missing")).isZero();
        // Each leaf has jcr:primaryType plus 7 properties.
        assertThat(reads.getInt("properties")).isEqualTo(30 * 8);
        assertThat(body.getJsonObject("timings").getJsonNumber("reads").doubleValue()).isPositive();
    }

    @Test
    void writesAreSavedThenRemoved() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        JsonObject writes = Fixtures.json(post("admin", "json", "writes", "25").getOutputAsString())
                .getJsonObject("writes");
        assertThat(writes.getInt("nodes")).isEqualTo(25);
        assertThat(writes.getBoolean("removed")).isTrue();
        assertThat(writes.getString("path")).startsWith(DemoContent.SCRATCH + "/");
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void theRepositoryStepsReportTheDatabaseRoundTripsOfThisThread() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        // Oak borrowed 5 connections on this thread before the request and 12 after its repository steps.
        long[] answers = {5, 12};
        int[] call = {0};
        servlet = servlet(new io.github.slingvt.jdbc.RoundTrips() {
            @Override
            public long onThisThread() {
                return answers[Math.min(call[0]++, 1)];
            }

            @Override
            public long total() {
                return 0;
            }
        });
        JsonObject body = Fixtures.json(get("json", "reads", "3").getOutputAsString());
        assertThat(body.getJsonObject("db").getInt("roundTrips")).isEqualTo(7);
    }

    @Test
    void aGetNeverWritesAndAnAnonymousPostIsRefused() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        MockSlingJakartaHttpServletResponse get = get("json", "writes", "25");
        assertThat(get.getStatus()).isEqualTo(405);
        assertThat(get.getHeader("Allow")).isEqualTo("POST");
        assertThat(Fixtures.json(get.getOutputAsString()).getString("error"))
                .isEqualTo("writes=25 changes state, and GET never does: send it with POST as a logged-in user");
        for (String anonymous : new String[] {null, "anonymous"}) {
            MockSlingJakartaHttpServletResponse post = post(anonymous, "json", "writes", "25");
            assertThat(post.getStatus()).as("POST as %s", anonymous).isEqualTo(403);
            assertThat(Fixtures.json(post.getOutputAsString()).getString("error")).contains("needs a logged-in user");
        }
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void fileLengthReadsThatManyBytes() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        JsonObject file = Fixtures.json(get("json", "fileLength", "2000").getOutputAsString())
                .getJsonObject("fileLength");
        assertThat(file.getInt("bytes")).isEqualTo(2000);
        assertThat(file.getString("binary")).isEqualTo(DemoContent.BINARIES + "/100k");
    }

    @Test
    void binVariantStreamsTheBinaryAsTheBody() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        MockSlingJakartaHttpServletResponse response = get("bin", "fileLength", "5000", "reads", "3");
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).startsWith("application/octet-stream");
        assertThat(response.getHeader("X-VT-Thread-Virtual")).isEqualTo("false");
        byte[] expected = new byte[5000];
        try (InputStream in = new PseudoRandomInputStream("100k", 100 * 1024)) {
            assertThat(in.readNBytes(expected, 0, 5000)).isEqualTo(5000);
        }
        assertThat(response.getOutput()).hasSize(5000);
        assertThat(Arrays.equals(response.getOutput(), expected)).isTrue();
    }

    @Test
    void idleDelayWaitsAtLeastTheRequestedTime() throws Exception {
        JsonObject body = Fixtures.json(get("json", "idleDelay", "80").getOutputAsString());
        assertThat(body.getJsonObject("idleDelay").getJsonNumber("ms").doubleValue()).isGreaterThanOrEqualTo(80);
        assertThat(body.getJsonObject("timings").getJsonNumber("idleDelay").doubleValue()).isGreaterThanOrEqualTo(80);
        assertThat(body.getJsonObject("timings").getJsonNumber("total").doubleValue()).isGreaterThanOrEqualTo(80);
    }

    @Test
    void cpuIterationsAreAllDone() throws Exception {
        JsonObject cpu = Fixtures.json(get("json", "cpuIterations", "5000").getOutputAsString())
                .getJsonObject("cpuIterations");
        assertThat(cpu.getInt("iterations")).isEqualTo(5000);
        assertThat(cpu.getString("digest")).isEqualTo(LocalSteps.cpu(5000).digest());
    }

    @Test
    void fanoutCallsTheSlowEndpointOnTheRequestsPort() throws Exception {
        try (SlowEndpoint endpoint = new SlowEndpoint()) {
            SlingJakartaHttpServletRequest onPort = new SlingJakartaHttpServletRequestWrapper(
                    context.jakartaRequest()) {
                @Override
                public int getLocalPort() {
                    return endpoint.port();
                }
            };
            MockSlingJakartaHttpServletResponse response = get(onPort, "json", "fanout", "4", "fanoutDelay", "100");
            assertThat(response.getStatus()).isEqualTo(200);
            JsonObject out = Fixtures.json(response.getOutputAsString()).getJsonObject("fanout");
            assertThat(out.getInt("calls")).isEqualTo(4);
            assertThat(out.getInt("ok")).isEqualTo(4);

            endpoint.status = 503;
            MockSlingJakartaHttpServletResponse failed = get(onPort, "json", "fanout", "2");
            assertThat(failed.getStatus()).isEqualTo(502);
            assertThat(Fixtures.json(failed.getOutputAsString()).getJsonObject("fanout").getInt("failed")).isEqualTo(2);
        }
    }

    @Test
    void allStepsRunInOneRequest() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        JsonObject body = Fixtures.json(post("admin", "json", "reads", "5", "writes", "5", "fileLength", "1024",
                "idleDelay", "10", "cpuIterations", "10").getOutputAsString());
        assertThat(body.getJsonObject("params").getInt("reads")).isEqualTo(5);
        assertThat(body.getJsonObject("reads").getInt("nodes")).isEqualTo(5);
        assertThat(body.getJsonObject("writes").getInt("nodes")).isEqualTo(5);
        assertThat(body.getJsonObject("fileLength").getString("binary")).endsWith("/1k");
        assertThat(body.getJsonObject("cpuIterations").getInt("iterations")).isEqualTo(10);
    }

    @Test
    void readsBeforeSeedingAre503NotAFailure() throws Exception {
        Fixtures.repoinit(context);
        MockSlingJakartaHttpServletResponse response = get("json", "reads", "10");
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isNotNull();
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getString("step")).isEqualTo("reads");
        assertThat(body.getString("message")).contains("status.json");
    }

    @Test
    void fileLengthBeforeSeedingIs503() throws Exception {
        Fixtures.repoinit(context);
        MockSlingJakartaHttpServletResponse response = get("bin", "fileLength", "10");
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(Fixtures.json(response.getOutputAsString()).getString("step")).isEqualTo("fileLength");
    }

    @Test
    void writesWithoutScratchPathAre503() throws Exception {
        MockSlingJakartaHttpServletResponse response = post("admin", "json", "writes", "1");
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(Fixtures.json(response.getOutputAsString()).getString("message")).contains(DemoContent.SCRATCH);
    }
}
