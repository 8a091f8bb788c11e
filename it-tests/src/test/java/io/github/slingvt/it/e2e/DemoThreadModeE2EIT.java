package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_BIN;
import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_JSON;
import static io.github.slingvt.it.e2e.DemoServletsSupport.getBytes;
import static io.github.slingvt.it.e2e.DemoServletsSupport.getOk;
import static io.github.slingvt.it.e2e.DemoServletsSupport.postOk;
import static io.github.slingvt.it.e2e.DemoServletsSupport.switchMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The demo servlets report the kind of the request thread: virtual in virtual mode, a platform thread in kernel
 * mode, switched live through the web console ({@code POST /system/console/slingvt mode=...}). Runs on the shared
 * instance: each test sets the mode it needs first, and virtual mode (the default) is restored after every test, so
 * the order of tests and classes does not matter.
 */
@ExtendWith(SharedSlingInstance.class)
class DemoThreadModeE2EIT {

    /** POSTed as admin: writes change state. */
    private static final String WORK = "?reads=20&writes=2&fileLength=1500&idleDelay=5&cpuIterations=10";
    /** The same without writes, for the GET of work.bin. */
    private static final String READ_WORK = "?reads=20&fileLength=1500&idleDelay=5&cpuIterations=10";

    private final SlingInstance sling;

    DemoThreadModeE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @BeforeAll
    static void seeded(SlingInstance sling) throws InterruptedException {
        DemoServletsSupport.awaitSeeded(sling);
    }

    @AfterEach
    void restoreVirtualMode() {
        switchMode(sling, "virtual");
    }

    @Test
    void virtualModeRunsTheWorkOnVirtualThreads() {
        switchMode(sling, "virtual");

        for (int i = 0; i < 3; i++) {
            final JsonNode work = postOk(sling, WORK_JSON + WORK);
            assertThat(work.at("/thread/virtual").isBoolean()).as("thread.virtual in %s", work).isTrue();
            assertThat(work.at("/thread/virtual").asBoolean()).as("thread.virtual in %s", work).isTrue();
            assertDone(work);
        }
        assertBinaryThread("true");
        assertSlowThread(true);
    }

    @Test
    void kernelModeRunsTheWorkOnPlatformThreadsAndVirtualModeAgainAfterSwitchingBack() {
        final JsonNode kernel = switchMode(sling, "kernel");
        assertThat(kernel.path("mode").asText()).isEqualTo("kernel");

        for (int i = 0; i < 3; i++) {
            final JsonNode work = postOk(sling, WORK_JSON + WORK);
            assertThat(work.at("/thread/virtual").isBoolean()).as("thread.virtual in %s", work).isTrue();
            assertThat(work.at("/thread/virtual").asBoolean()).as("thread.virtual in kernel mode: %s", work)
                    .isFalse();
            assertThat(work.at("/thread/name").asText()).as("thread.name in kernel mode: %s", work).isNotBlank();
            assertDone(work);
        }
        assertBinaryThread("false");
        assertSlowThread(false);
        // Fanout calls come back in through the same connector, also on platform threads; they must all succeed.
        final JsonNode fanout = getOk(sling, WORK_JSON + "?fanout=4&fanoutDelay=20");
        assertThat(fanout.at("/fanout/ok").asInt()).as("fanout.ok in kernel mode: %s", fanout).isEqualTo(4);

        switchMode(sling, "virtual");
        final JsonNode back = postOk(sling, WORK_JSON + WORK);
        assertThat(back.at("/thread/virtual").asBoolean()).as("thread.virtual after switching back: %s", back)
                .isTrue();
        assertDone(back);
    }

    private void assertBinaryThread(String virtual) {
        final HttpResponse<byte[]> bin = getBytes(sling, WORK_BIN + READ_WORK);
        assertThat(bin.statusCode()).as("GET work.bin%s", READ_WORK).isEqualTo(200);
        assertThat(bin.body().length).as("bytes of work.bin%s", READ_WORK).isEqualTo(1500);
        assertThat(bin.headers().firstValue("X-VT-Thread-Virtual")).as("X-VT-Thread-Virtual of work.bin")
                .hasValue(virtual);
        assertThat(bin.headers().firstValue("X-VT-Thread-Name")).as("X-VT-Thread-Name of work.bin").isPresent();
    }

    private void assertSlowThread(boolean virtual) {
        final JsonNode slow = getOk(sling, "/bin/vt/slow.json?delay=5");
        assertThat(slow.path("delay").asLong()).as("delay in %s", slow).isEqualTo(5);
        assertThat(slow.path("ms").asDouble()).as("ms in %s", slow).isGreaterThanOrEqualTo(5);
        assertThat(slow.at("/thread/virtual").asBoolean()).as("thread.virtual of slow.json: %s", slow)
                .isEqualTo(virtual);
    }

    private static void assertDone(JsonNode work) {
        assertThat(work.at("/reads/nodes").asLong()).as("reads.nodes in %s", work).isEqualTo(20);
        assertThat(work.at("/writes/nodes").asInt()).as("writes.nodes in %s", work).isEqualTo(2);
        assertThat(work.at("/writes/removed").asBoolean()).as("writes.removed in %s", work).isTrue();
        assertThat(work.at("/fileLength/bytes").asLong()).as("fileLength.bytes in %s", work).isEqualTo(1500);
        assertThat(work.at("/cpuIterations/iterations").asInt()).as("cpuIterations in %s", work).isEqualTo(10);
    }
}
