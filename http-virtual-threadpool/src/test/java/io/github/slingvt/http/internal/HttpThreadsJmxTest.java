package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

class HttpThreadsJmxTest {

    @Test
    void exposesPinnedEventsAndTopStacks() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        ThreadingState state = new ThreadingState(timer);
        HttpThreadsJmx jmx = new HttpThreadsJmx(state);
        jmx.register();
        try {
            state.pinning().record(new PinnedEvent(25_000_000, "t", "", List.of("a.B.c(line 1)", "d.E.f(line 2)")));
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(HttpThreadsJmx.OBJECT_NAME);
            assertThat(server.getAttribute(name, "PinnedEvents")).isEqualTo(1L);
            assertThat((String[]) server.getAttribute(name, "TopPinnedStacks"))
                    .containsExactly("1 time, longest 25 ms: a.B.c(line 1) <- d.E.f(line 2)");
            assertThat(state.snapshot().toJson()).endsWith(",\"queued\":0,\"pinnedEvents\":1}");
        } finally {
            jmx.unregister();
            timer.shutdownNow();
        }
    }
}
