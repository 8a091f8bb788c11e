package io.github.slingvt.threads.internal;

import static io.github.slingvt.threads.internal.Fixture.TIMEOUT_SECONDS;
import static io.github.slingvt.threads.internal.Fixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.apache.sling.commons.threads.ModifiableThreadPoolConfig;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContext;
import org.apache.sling.testing.mock.osgi.junit5.OsgiContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTML form of the status printer, which the console page of http-virtual-threadpool embeds. */
@ExtendWith(OsgiContextExtension.class)
@Timeout(value = 2 * TIMEOUT_SECONDS, unit = TimeUnit.SECONDS)
class ThreadPoolsStatusPrinterTest {

    private final OsgiContext context = new OsgiContext();

    @Test
    void advertisesHtmlBesideTextAndJson() {
        new Fixture(context).manager("virtual");
        context.registerInjectActivateService(ThreadPoolsStatusPrinter.class);
        Object formats = context.bundleContext().getServiceReference(InventoryPrinter.class)
                .getProperty(InventoryPrinter.FORMAT);
        assertThat(Arrays.asList((String[]) formats)).containsExactlyInAnyOrder("TEXT", "HTML", "JSON");
    }

    @Test
    void htmlHasOneRowPerPoolWithModeAndCountersAndEscapesLabels() throws Exception {
        VirtualThreadPoolManager manager = new Fixture(context).manager("virtual", "k=kernel");
        context.registerInjectActivateService(ThreadPoolsStatusPrinter.class);
        manager.get("p").submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        manager.get("k");
        manager.create(new ModifiableThreadPoolConfig(), "<script>alert('x')</script>");
        Fixture.awaitCondition("task counted", () -> status(manager, "p").completed() == 1);

        String html = print(context.getService(InventoryPrinter.class), Format.HTML);

        assertThat(html).contains("defaultMode=virtual, poolModes=[k=kernel]")
                .contains("<tr><td>k</td><td>kernel</td><td>5</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>")
                .contains("<tr><td>p</td><td>virtual</td><td>5</td><td>0</td><td>0</td><td>1</td><td>0</td></tr>")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
                .doesNotContain("<script>");
    }

    @Test
    void htmlSaysSoWhenNoPoolIsInUse() {
        new Fixture(context).manager("kernel");
        context.registerInjectActivateService(ThreadPoolsStatusPrinter.class);
        assertThat(print(context.getService(InventoryPrinter.class), Format.HTML))
                .contains("defaultMode=kernel").contains("No pool in use yet.");
    }

    private static String print(InventoryPrinter printer, Format format) {
        StringWriter out = new StringWriter();
        printer.print(new PrintWriter(out), format, false);
        return out.toString();
    }
}
