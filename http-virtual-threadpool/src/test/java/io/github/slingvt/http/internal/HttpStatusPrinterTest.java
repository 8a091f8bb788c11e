package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;

import javax.management.MBeanServerFactory;

import org.apache.felix.inventory.Format;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler figures in the status printer: JSON for {@code ./sling-vt status}, TEXT for status dumps. */
class HttpStatusPrinterTest {

    private VirtualThreadsConnectorFactory factory;

    @BeforeEach
    void activate() {
        factory = new VirtualThreadsConnectorFactory(defaults());
    }

    @AfterEach
    void deactivate() {
        factory.deactivate();
    }

    @Test
    void jsonCarriesTheSchedulerFiguresAfterTheCounters() {
        SchedulerStats.Figures figures = SchedulerStats.platform().read();
        String json = print(new HttpStatusPrinter(factory), Format.JSON);

        assertThat(json).startsWith("{\"mode\":\"virtual\",\"inFlight\":0,")
                .contains(",\"pinnedEvents\":0,\"scheduler\":{\"available\":" + figures.available())
                .endsWith("}}");
        if (figures.available()) {
            assertThat(json).contains("\"scheduler\":{\"available\":true,\"parallelism\":" + figures.parallelism()
                    + ",\"poolSize\":");
        }
    }

    @Test
    void jsonAndTextSayNotAvailableWithoutTheBean() {
        HttpStatusPrinter printer = new HttpStatusPrinter(factory,
                new SchedulerStats(MBeanServerFactory.newMBeanServer()));

        assertThat(print(printer, Format.JSON))
                .endsWith(",\"pinnedEvents\":0,\"scheduler\":{\"available\":false,"
                        + "\"reason\":\"not available (needs JDK 24+)\"}}");
        assertThat(print(printer, Format.TEXT))
                .contains("Kernel max threads: 200\nVirtual thread scheduler: not available (needs JDK 24+)\n");
    }

    @Test
    void textHasOneSchedulerLine() {
        SchedulerStats.Figures figures = SchedulerStats.platform().read();
        String text = print(new HttpStatusPrinter(factory), Format.TEXT);

        assertThat(text).contains("Mode: virtual\n").contains(figures.available()
                ? "Virtual thread scheduler: parallelism " + figures.parallelism() + ", pool size "
                : "Virtual thread scheduler: not available (needs JDK 24+)");
    }

    private static String print(HttpStatusPrinter printer, Format format) {
        StringWriter out = new StringWriter();
        printer.print(new PrintWriter(out), format, false);
        return out.toString().replace(System.lineSeparator(), "\n");
    }

    /** The configuration as DS would pass it with no configuration present: every attribute's default. */
    static VirtualThreadsConfig defaults() {
        return (VirtualThreadsConfig) Proxy.newProxyInstance(VirtualThreadsConfig.class.getClassLoader(),
                new Class<?>[] {VirtualThreadsConfig.class}, (proxy, method, args) -> {
                    if (method.getDefaultValue() != null) {
                        return method.getDefaultValue();
                    }
                    if (method.getName().equals("annotationType")) {
                        return VirtualThreadsConfig.class;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
