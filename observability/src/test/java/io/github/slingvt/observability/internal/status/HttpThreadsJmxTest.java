package io.github.slingvt.observability.internal.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinnedEvent;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import org.junit.jupiter.api.Test;

class HttpThreadsJmxTest {

    @Test
    void exposesTheHttpSnapshotPinnedEventsAndTopStacksWhileActive() throws Exception {
        Fakes.Http http = new Fakes.Http();
        http.now = new HttpThreadsSnapshot(ThreadingMode.KERNEL, 50, 300, 4, 9, 2, 120, 7, 116, 80, 1, "bad value");
        PinningStats pinning = new PinningStats();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(HttpThreadsJmx.OBJECT_NAME);

        HttpThreadsJmx jmx = new HttpThreadsJmx(http, pinning);
        try {
            pinning.record(new PinnedEvent(25_000_000, "t", "", List.of("a.B.c(line 1)", "d.E.f(line 2)")));
            assertThat(server.getAttribute(name, "Mode")).isEqualTo("kernel");
            assertThat(server.getAttribute(name, "MaxConcurrentRequests")).isEqualTo(50);
            assertThat(server.getAttribute(name, "MaxConcurrentRequestsSetting")).isEqualTo("50");
            assertThat(server.getAttribute(name, "Adaptive")).isEqualTo(false);
            assertThat(server.getAttribute(name, "ConcurrencyLimit")).isEqualTo(50);
            assertThat(server.getAttribute(name, "KernelMaxThreads")).isEqualTo(300);
            assertThat(server.getAttribute(name, "InFlight")).isEqualTo(4L);
            assertThat(server.getAttribute(name, "PeakInFlight")).isEqualTo(9L);
            assertThat(server.getAttribute(name, "Queued")).isEqualTo(2);
            assertThat(server.getAttribute(name, "Admitted")).isEqualTo(120L);
            assertThat(server.getAttribute(name, "Rejected")).isEqualTo(7L);
            assertThat(server.getAttribute(name, "Completed")).isEqualTo(116L);
            assertThat(server.getAttribute(name, "VirtualThreadsStarted")).isEqualTo(80L);
            assertThat(server.getAttribute(name, "RefusedConfigurations")).isEqualTo(1L);
            assertThat(server.getAttribute(name, "LastConfigurationError")).isEqualTo("bad value");
            assertThat(server.getAttribute(name, "PinnedEvents")).isEqualTo(1L);
            http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 300, 4, 9, 2, 120, 7, 116, 80, 1, "", true, 77);
            assertThat(server.getAttribute(name, "Adaptive")).isEqualTo(true);
            assertThat(server.getAttribute(name, "ConcurrencyLimit")).isEqualTo(77);
            assertThat(server.getAttribute(name, "MaxConcurrentRequests")).as("auto: the limit in force").isEqualTo(77);
            assertThat(server.getAttribute(name, "MaxConcurrentRequestsSetting")).isEqualTo("auto");
            assertThat(server.getAttribute(name, "NewestFirst")).as("in arrival order").isEqualTo(false);
            http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 300, 4, 9, 2, 120, 7, 116, 80, 1, "", true, 77, 3,
                    0, true);
            assertThat(server.getAttribute(name, "NewestFirst")).isEqualTo(true);
            http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 300, 4, 9, 0, 120, 0, 116, 80, 0, "");
            assertThat(server.getAttribute(name, "MaxConcurrentRequests")).isEqualTo(0);
            assertThat(server.getAttribute(name, "MaxConcurrentRequestsSetting")).isEqualTo("unbounded");
            assertThat((String[]) server.getAttribute(name, "TopPinnedStacks"))
                    .containsExactly("1 time, longest 25 ms: a.B.c(line 1) <- d.E.f(line 2)");
        } finally {
            jmx.unregister();
        }
        assertThat(server.isRegistered(name)).as("unregistered on deactivation").isFalse();
    }
}
