package io.github.slingvt.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.github.slingvt.config.ConfigProblem;
import org.apache.felix.inventory.Format;
import org.apache.felix.inventory.InventoryPrinter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConsolePageTest {

    private static final SchedulerStats.Figures FIGURES = new SchedulerStats.Figures(true, 4, 3, 2, 7, "");

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ThreadingState state = new ThreadingState(timer);
    private final List<ConfigProblem> problems = new ArrayList<>();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    @Test
    void showsHttpCountersSchedulerFiguresPoolsAndBothSwitches() {
        state.pinning().record(new PinnedEvent(25_000_000, "t", "", List.of("a.B.<init>(line 1)")));
        InventoryPrinter pools = (out, format, zip) -> out.print(format == Format.HTML
                ? "<table class='nicetable'><tr><td>default</td><td>virtual</td></tr></table>" : "TEXT");

        String html = render(FIGURES, new ConsolePage.StatusPrinter(pools, true));

        assertThat(html).contains("<tr><td>Mode</td><td>virtual</td></tr>")
                .contains("<tr><td>Admitted / rejected / completed</td><td>0 / 0 / 0</td></tr>")
                .contains("<tr><td>Parallelism</td><td>4</td></tr>")
                .contains("<tr><td>Pool size (carrier threads)</td><td>3</td></tr>")
                .contains("<tr><td>Mounted virtual threads</td><td>2</td></tr>")
                .contains("<tr><td>Queued virtual threads</td><td>7</td></tr>")
                .contains("<tr><td>default</td><td>virtual</td></tr>")
                .contains("name='mode' value='kernel'", "name='mode' value='virtual'")
                .contains(">Switch HTTP requests to kernel</button>")
                .contains("<button type='submit' disabled>Switch HTTP requests to virtual</button>")
                .contains("name='poolsMode' value='kernel'", "name='poolsMode' value='virtual'")
                .contains(">Switch all Sling thread pools to kernel</button>")
                .contains(">Switch all Sling thread pools to virtual</button>")
                .contains("action='/system/console/slingvt'")
                .contains("<a href='/system/console/configMgr/io.github.slingvt.threads.VirtualThreadPools'>")
                .contains("a.B.&lt;init&gt;(line 1)");
    }

    @Test
    void refusedConfigurationsComeFirstEscapedAndLinkedToTheirConfiguration() {
        assertThat(render(FIGURES, null)).doesNotContain("slingvt-config-errors");
        problems.add(new ConfigProblem("io.github.slingvt.demo.ContentSeeder", "folders", "<b>x</b>",
                "a whole number from 1 to 10000"));

        String html = render(FIGURES, null);

        assertThat(html.indexOf("id='slingvt-config-errors'")).isNotNegative()
                .isLessThan(html.indexOf("id='slingvt-http'"));
        assertThat(html).contains("<tr><td><a href='/system/console/configMgr/io.github.slingvt.demo.ContentSeeder'>"
                + "io.github.slingvt.demo.ContentSeeder</a></td><td>folders</td><td>&lt;b&gt;x&lt;/b&gt;</td>"
                + "<td>a whole number from 1 to 10000</td></tr>");
    }

    @Test
    void saysSoWhenThreadPoolsBundleOrSchedulerIsMissing() {
        String html = render(SchedulerStats.Figures.unavailable(SchedulerStats.NOT_AVAILABLE), null);

        assertThat(html).contains("<tr><td>Scheduler</td><td>not available (needs JDK 24+)</td></tr>")
                .doesNotContain("Parallelism")
                .contains("Not available: the bundle commons-threads-virtual (status printer slingvt-threadpools) "
                        + "is not active.")
                .contains(">Switch all Sling thread pools to kernel</button>");
    }

    @Test
    void embedsATextOnlyPrinterEscapedInPre() {
        InventoryPrinter pools = (out, format, zip) -> out.print(format + ": pool <x> & y");

        assertThat(render(FIGURES, new ConsolePage.StatusPrinter(pools, false)))
                .contains("<pre>TEXT: pool &lt;x&gt; &amp; y</pre>");
    }

    @Test
    void aFailingPrinterDoesNotBreakThePage() {
        InventoryPrinter pools = (out, format, zip) -> {
            throw new IllegalStateException("<boom>");
        };

        assertThat(render(FIGURES, new ConsolePage.StatusPrinter(pools, true)))
                .contains("The thread-pools status printer failed: java.lang.IllegalStateException: &lt;boom&gt;")
                .contains("Pinned virtual threads");
    }

    @Test
    void htmlFormatIsDetectedInAnyPropertyShape() {
        assertThat(ConsolePlugin.offersHtml(new String[] {"TEXT", "HTML", "JSON"})).isTrue();
        assertThat(ConsolePlugin.offersHtml(List.of("TEXT", "html"))).isTrue();
        assertThat(ConsolePlugin.offersHtml("HTML")).isTrue();
        assertThat(ConsolePlugin.offersHtml(new String[] {"TEXT", "JSON"})).isFalse();
        assertThat(ConsolePlugin.offersHtml(null)).isFalse();
    }

    @Test
    void showsTheRepositoryAndJdbcPoolFromItsPrinterOrSaysItIsMissing() {
        InventoryPrinter repository = (out, format, zip) -> out.print(format == Format.HTML
                ? "<table class='nicetable' id='slingvt-repository'><tr><td>Threads waiting for a connection</td>"
                        + "<td>12</td></tr></table>" : "TEXT");

        String html = render(FIGURES, null, new ConsolePage.StatusPrinter(repository, true));

        assertThat(html).contains("Repository and JDBC pool")
                .contains("<tr><td>Threads waiting for a connection</td><td>12</td></tr>");
        assertThat(render(FIGURES, null)).contains("Repository and JDBC pool")
                .contains("Not available: the status printer slingvt-repository (bundle demo-servlets) is not active.")
                .doesNotContain("id='slingvt-repository'");
    }

    private String render(SchedulerStats.Figures figures, ConsolePage.StatusPrinter pools) {
        return render(figures, pools, null);
    }

    private String render(SchedulerStats.Figures figures, ConsolePage.StatusPrinter pools,
            ConsolePage.StatusPrinter repository) {
        StringWriter out = new StringWriter();
        ConsolePage.render(new PrintWriter(out), "/system/console/slingvt", "/system/console", state, figures, pools,
                repository, problems);
        return out.toString();
    }
}
