package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.steps.Fanout;
import io.github.slingvt.demo.internal.steps.LocalSteps;
import io.github.slingvt.demo.internal.steps.RepositorySteps;
import io.github.slingvt.demo.internal.steps.WorkReport;
import io.github.slingvt.demo.internal.steps.WorkRequest;
import io.github.slingvt.demo.internal.steps.WorkSteps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;

import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.api.wrappers.SlingJakartaHttpServletRequestWrapper;
import org.apache.sling.servlethelpers.MockSlingJakartaHttpServletResponse;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SlingContextExtension.class)
public class AsyncWorkServletTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);
    private final AtomicInteger poolThreads = new AtomicInteger();
    private ExecutorService cpuPool;
    private Fanout fanout;
    private AsyncWorkServlet servlet;
    private MockSlingJakartaHttpServletResponse response;
    private FakeAsyncContext asyncContext;

    @BeforeEach
    void setUp() {
        cpuPool = Executors.newFixedThreadPool(2,
                task -> new Thread(task, "test-async-cpu-" + poolThreads.incrementAndGet()));
        fanout = new Fanout();
        servlet = new AsyncWorkServlet(new WorkSteps(
                new RepositorySteps(context.getService(ResourceResolverFactory.class)), fanout,
                Fixtures.NO_ROUND_TRIPS), cpuPool,
                AnonymousLimits.NONE);
        response = new MockSlingJakartaHttpServletResponse();
    }

    @AfterEach
    void tearDown() {
        fanout.close();
        cpuPool.shutdownNow();
    }

    /** The request as Sling's servlet context hands it over: resolver attribute set, async supported or not. */
    private SlingJakartaHttpServletRequestWrapper request(boolean asyncSupported, boolean withResolver,
            String... params) {
        context.jakartaRequest().setParameterMap(Fixtures.params(params));
        if (withResolver) {
            context.jakartaRequest().setAttribute(AsyncWorkServlet.RESOLVER_ATTRIBUTE, context.resourceResolver());
        }
        return new SlingJakartaHttpServletRequestWrapper(context.jakartaRequest()) {
            @Override
            public boolean isAsyncSupported() {
                return asyncSupported;
            }

            @Override
            public AsyncContext startAsync() {
                asyncContext = new FakeAsyncContext(this, response);
                return asyncContext;
            }
        };
    }

    @Test
    void invalidParameterIsA400() throws Exception {
        context.jakartaRequest().setParameterMap(Fixtures.params("cpuIterations", "1000001"));
        MockSlingJakartaHttpServletResponse bad = new MockSlingJakartaHttpServletResponse();
        servlet.service(context.jakartaRequest(), bad);
        assertThat(bad.getStatus()).isEqualTo(400);
        JsonObject body = Fixtures.json(bad.getOutputAsString());
        assertThat(body.getString("parameter")).isEqualTo("cpuIterations");
        assertThat(body.getString("allowed")).isEqualTo("0-1000000");
    }

    @Test
    void writesAreNeverDoneOnAGet() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        servlet.service(request(true, true, "writes", "3"), response);
        assertThat(response.getStatus()).isEqualTo(405);
        assertThat(response.getHeader("Allow")).isEqualTo("POST");
        assertThat(Fixtures.json(response.getOutputAsString()).getString("error")).startsWith("writes=3");
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void theRequestThreadReturnsBeforeTheIdleDelayAndTheAnswerComesLater() throws Exception {
        Fixtures.seed(context, Fixtures.SMALL_TREE);
        long start = System.nanoTime();
        servlet.service(request(true, true, "reads", "7", "fileLength", "100",
                "idleDelay", "300", "cpuIterations", "50"), response);
        long serviceMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(serviceMs).isLessThan(300);
        assertThat(asyncContext.timeout).isGreaterThan(300);

        assertThat(asyncContext.completed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getString("mode")).isEqualTo("async");
        assertThat(body.getBoolean("async")).isTrue();
        assertThat(body.getJsonObject("thread").getString("name")).isEqualTo(Thread.currentThread().getName());
        assertThat(body.getJsonObject("completedOn").getString("name")).startsWith("test-async-cpu-");
        assertThat(body.getJsonObject("reads").getInt("nodes")).isEqualTo(7);
        assertThat(body.getJsonObject("fileLength").getInt("bytes")).isEqualTo(100);
        assertThat(body.getJsonObject("idleDelay").getJsonNumber("ms").doubleValue()).isGreaterThanOrEqualTo(300);
        assertThat(body.getJsonObject("cpuIterations").getString("digest")).isEqualTo(LocalSteps.cpu(50).digest());
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void fanoutCallsAreAsyncToo() throws Exception {
        try (SlowEndpoint endpoint = new SlowEndpoint()) {
            SlingJakartaHttpServletRequestWrapper request = new SlingJakartaHttpServletRequestWrapper(
                    request(true, true, "fanout", "5", "fanoutDelay", "200")) {
                @Override
                public int getLocalPort() {
                    return endpoint.port();
                }

                @Override
                public AsyncContext startAsync() {
                    asyncContext = new FakeAsyncContext(this, response);
                    return asyncContext;
                }

                @Override
                public boolean isAsyncSupported() {
                    return true;
                }
            };
            servlet.service(request, response);
            assertThat(asyncContext.completed.await(10, TimeUnit.SECONDS)).isTrue();
            JsonObject out = Fixtures.json(response.getOutputAsString()).getJsonObject("fanout");
            assertThat(out.getInt("ok")).isEqualTo(5);
            assertThat(endpoint.maxInFlight.get()).isGreaterThan(1);
        }
    }

    @Test
    void timeoutAnswers503OnceAndCompletesOnce() throws Exception {
        servlet.service(request(true, true, "idleDelay", "1000"), response);
        asyncContext.fireTimeout();
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(Fixtures.json(response.getOutputAsString()).getString("step")).isEqualTo("async");
        Thread.sleep(1_300);
        assertThat(asyncContext.completions.get()).isEqualTo(1);
        assertThat(response.getStatus()).isEqualTo(503);
    }

    @Test
    void withoutAsyncSupportItBlocksAndSaysSo() throws Exception {
        servlet.service(request(false, true, "idleDelay", "50", "cpuIterations", "10"), response);
        assertThat(asyncContext).isNull();
        assertThat(response.getStatus()).isEqualTo(200);
        JsonObject body = Fixtures.json(response.getOutputAsString());
        assertThat(body.getBoolean("async")).isFalse();
        assertThat(body.getJsonObject("idleDelay").getJsonNumber("ms").doubleValue()).isGreaterThanOrEqualTo(50);
    }

    @Test
    void withoutSlingsResolverItIs503() throws Exception {
        servlet.service(request(true, false), response);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(Fixtures.json(response.getOutputAsString()).getString("message")).contains("resource resolver");
    }

    @Test
    void contentNotSeededIs503BeforeGoingAsync() throws Exception {
        servlet.service(request(true, true, "reads", "1"), response);
        assertThat(asyncContext).isNull();
        assertThat(response.getStatus()).isEqualTo(503);
    }

    @Test
    void waitsChainHoldsNoThreadDuringTheIdleDelay() throws Exception {
        WorkRequest work = new WorkRequest(0, 0, 0, 200, 0, 0, 0);
        long start = System.nanoTime();
        CompletableFuture<WorkReport> future = servlet.waits(work, new WorkReport("async", work), 0, null);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(200);
        assertThat(future).isNotDone();
        assertThat(poolThreads.get()).isZero();
        assertThat(future.get(5, TimeUnit.SECONDS).idleMillis()).isGreaterThanOrEqualTo(200);
    }
}
