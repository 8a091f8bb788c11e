package io.github.slingvt.observability.internal.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import javax.management.MBeanServerFactory;

import io.github.slingvt.config.ConfigReader;
import io.github.slingvt.config.internal.ConfigGuardService;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.http.api.ThreadingMode;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import org.apache.felix.inventory.Format;
import org.junit.jupiter.api.Test;

/** The scheduler figures in the status printer: JSON for {@code ./sling-vt status}, TEXT for status dumps. */
class HttpStatusPrinterTest {

    private final ConfigGuardService guard = new ConfigGuardService();
    private final Fakes.Http http = new Fakes.Http();
    private final PinningStats pinning = new PinningStats();

    @Test
    void jsonCarriesTheSchedulerFiguresAfterTheCounters() {
        SchedulerStats.Figures figures = SchedulerStats.platform().read();
        String json = print(new HttpStatusPrinter(http, pinning, guard), Format.JSON);

        assertThat(json).startsWith("{\"mode\":\"virtual\",\"maxConcurrentRequests\":\"0\",\"concurrencyLimit\":0,"
                + "\"inFlight\":0,")
                .contains(",\"pinnedEvents\":0,\"scheduler\":{\"available\":" + figures.available())
                .endsWith("},\"configErrors\":[]}");
        if (figures.available()) {
            assertThat(json).contains("\"scheduler\":{\"available\":true,\"parallelism\":" + figures.parallelism()
                    + ",\"poolSize\":");
        }
    }

    @Test
    void jsonAndTextSayNotAvailableWithoutTheBean() {
        HttpStatusPrinter printer = new HttpStatusPrinter(http, pinning, guard,
                new SchedulerStats(MBeanServerFactory.newMBeanServer()));

        assertThat(print(printer, Format.JSON))
                .endsWith(",\"pinnedEvents\":0,\"scheduler\":{\"available\":false,"
                        + "\"reason\":\"not available (needs JDK 24+)\"},\"configErrors\":[]}");
        assertThat(print(printer, Format.TEXT))
                .contains("Kernel max threads: 200\nVirtual thread scheduler: not available (needs JDK 24+)\n");
    }

    @Test
    void aRefusedConfigurationIsListedWithPidPropertyValueAndWhatIsAllowed() {
        guard.read("io.github.slingvt.http.VirtualThreads", Map.of("maxConcurrentRequests", "lots"),
                (ConfigReader r) -> r.integer("maxConcurrentRequests", 0, 0, 1_000_000));

        assertThat(print(new HttpStatusPrinter(http, pinning, guard), Format.JSON)).endsWith(",\"configErrors\":[{"
                + "\"pid\":\"io.github.slingvt.http.VirtualThreads\",\"property\":\"maxConcurrentRequests\","
                + "\"value\":\"lots\",\"allowed\":\"a whole number from 0 to 1000000\",\"message\":"
                + "\"io.github.slingvt.http.VirtualThreads: property 'maxConcurrentRequests' = 'lots' refused; "
                + "allowed: a whole number from 0 to 1000000\"}]}");
        assertThat(print(new HttpStatusPrinter(http, pinning, guard), Format.TEXT)).contains("Refused configurations: 1\n"
                + "  io.github.slingvt.http.VirtualThreads: property 'maxConcurrentRequests' = 'lots' refused");
    }

    @Test
    void textHasOneSchedulerLine() {
        SchedulerStats.Figures figures = SchedulerStats.platform().read();
        String text = print(new HttpStatusPrinter(http, pinning, guard), Format.TEXT);

        assertThat(text).contains("Mode: virtual\n").contains(figures.available()
                ? "Virtual thread scheduler: parallelism " + figures.parallelism() + ", pool size "
                : "Virtual thread scheduler: not available (needs JDK 24+)");
    }

    @Test
    void anAdaptiveCapShowsAutoAndItsValueNow() {
        http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 200, 3, 9, 0, 10, 0, 7, 10, 0, "", true, 412);
        HttpStatusPrinter printer = new HttpStatusPrinter(http, pinning, guard);

        assertThat(print(printer, Format.JSON))
                .startsWith("{\"mode\":\"virtual\",\"maxConcurrentRequests\":\"auto\",\"concurrencyLimit\":412,");
        assertThat(print(printer, Format.TEXT)).contains("Max concurrent requests: auto (now 412)\n")
                .doesNotContain("Queue order");
        assertThat(print(printer, Format.JSON)).contains("\"queued\":0,\"newestFirst\":false,");

        http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 0, 200, 3, 9, 800, 10, 0, 7, 10, 0, "", true, 40, 0,
                0, true);
        assertThat(print(printer, Format.JSON)).contains("\"queued\":800,\"newestFirst\":true,");
        assertThat(print(printer, Format.TEXT)).contains("Queue order: newest first (the queue is in overload)\n");

        http.now = new HttpThreadsSnapshot(ThreadingMode.VIRTUAL, 150, 200, 0, 0, 0, 0, 0, 0, 0, 0, "");
        assertThat(print(printer, Format.JSON)).contains("\"maxConcurrentRequests\":\"150\",\"concurrencyLimit\":150,");
        assertThat(print(printer, Format.TEXT)).contains("Max concurrent requests: 150\n");
    }

    private static String print(HttpStatusPrinter printer, Format format) {
        StringWriter out = new StringWriter();
        printer.print(new PrintWriter(out), format, false);
        return out.toString().replace(System.lineSeparator(), "\n");
    }
}
