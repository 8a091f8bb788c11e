package io.github.slingvt.observability.internal.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.internal.ConfigGuardService;
import io.github.slingvt.http.api.HttpModeSwitch;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.ServiceRegistration;

/**
 * The console page as DS wires it: it stays while the HTTP bundle is stopped or replaced, says why the HTTP part is
 * missing, refuses the HTTP switch with 503 meanwhile, and follows the bundle when it comes back.
 */
@ExtendWith(OsgiContextExtension.class)
class ConsolePluginTest {

    private final OsgiContext context = new OsgiContext();
    private final List<ThreadingMode> switched = new ArrayList<>();
    private ConsolePlugin plugin;

    @BeforeEach
    void activateWithoutTheHttpBundle() {
        context.registerService(PinnedThreads.class, new PinningStats());
        context.registerService(ConfigGuard.class, new ConfigGuardService());
        plugin = context.registerInjectActivateService(ConsolePlugin.class);
    }

    @Test
    void withoutTheHttpBundleThePageStaysAndTheHttpPartsAnswer503() throws Exception {
        Answer page = get(null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("Not available: the bundle http-virtual-threadpool is not active.")
                .contains("Sling thread pools");

        Answer status = get("/slingvt.json");
        assertThat(status.status()).isEqualTo(503);
        assertThat(status.body()).isEqualTo("{\"error\":\"" + ConsolePlugin.HTTP_MISSING + "\"}");

        assertThat(post(Map.of("mode", "kernel")).status()).isEqualTo(503);
        assertThat(post(Map.of("mode", "fast")).status()).as("a bad value is still a bad value").isEqualTo(400);
        assertThat(switched).isEmpty();
    }

    @Test
    void followsTheHttpBundleWhenItComesAndGoes() throws Exception {
        ServiceRegistration<HttpThreads> threads = context.bundleContext().registerService(HttpThreads.class,
                new Fakes.Http(), null);
        ServiceRegistration<HttpModeSwitch> modeSwitch = context.bundleContext().registerService(
                HttpModeSwitch.class, this::record, null);

        assertThat(get("/slingvt.json").body()).startsWith("{\"mode\":\"virtual\",");
        Answer switchedToKernel = post(Map.of("mode", "kernel"));
        assertThat(switchedToKernel.status()).isEqualTo(200);
        assertThat(switched).containsExactly(ThreadingMode.KERNEL);
        assertThat(get(null).body()).contains(">Switch HTTP requests to kernel</button>");

        threads.unregister();
        modeSwitch.unregister();
        assertThat(get("/slingvt.json").status()).isEqualTo(503);
        assertThat(post(Map.of("mode", "virtual")).status()).isEqualTo(503);
        assertThat(switched).containsExactly(ThreadingMode.KERNEL);
    }

    private boolean record(ThreadingMode mode, Duration wait) {
        switched.add(mode);
        return true;
    }

    private Answer get(String pathInfo) throws Exception {
        Answer answer = new Answer();
        plugin.doGet(request(pathInfo, Map.of()), answer.response());
        return answer;
    }

    private Answer post(Map<String, String> parameters) throws Exception {
        Answer answer = new Answer();
        plugin.doPost(request(null, parameters), answer.response());
        return answer;
    }

    /** A console request without Origin or Referer (curl, ./sling-vt mode). */
    private static HttpServletRequest request(String pathInfo, Map<String, String> parameters) {
        return (HttpServletRequest) Proxy.newProxyInstance(ConsolePluginTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getPathInfo" -> pathInfo;
                    case "getContextPath" -> "";
                    case "getServletPath" -> "/system/console";
                    case "getParameter" -> parameters.get((String) args[0]);
                    case "getHeader" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** What the plugin answered: the status it set (200 unless set) and the text it wrote. */
    private static final class Answer {
        private int status = 200;
        private final StringWriter body = new StringWriter();
        private final PrintWriter writer = new PrintWriter(body, true);

        int status() {
            return status;
        }

        String body() {
            writer.flush();
            return body.toString();
        }

        HttpServletResponse response() {
            return (HttpServletResponse) Proxy.newProxyInstance(ConsolePluginTest.class.getClassLoader(),
                    new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "setStatus" -> {
                            status = (Integer) args[0];
                            yield null;
                        }
                        case "setContentType" -> null;
                        case "getWriter" -> writer;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }
}
