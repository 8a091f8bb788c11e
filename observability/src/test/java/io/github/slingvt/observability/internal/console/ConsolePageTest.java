package io.github.slingvt.observability.internal.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.observability.api.ConsoleSection;
import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.observability.internal.pinning.PinnedEvent;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import io.github.slingvt.observability.internal.status.SchedulerStats;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import io.github.slingvt.threads.api.ThreadPools;
import org.junit.jupiter.api.Test;

class ConsolePageTest {

    private static final SchedulerStats.Figures FIGURES = new SchedulerStats.Figures(true, 4, 3, 2, 7, "");

    private static final ThreadPools POOLS = new Fakes.Pools("defaultMode=virtual, poolModes=[]",
            List.of(new ThreadPoolSnapshot("default", ThreadPoolMode.VIRTUAL, 0, 0, 0, 0, 10, 0)), List.of());

    private final Fakes.Http http = new Fakes.Http();
    private final PinningStats pinning = new PinningStats();
    private final List<ConfigProblem> problems = new ArrayList<>();
    private final List<ConsoleSection> sections = new ArrayList<>();
    private boolean httpActive = true;

    @Test
    void showsHttpCountersSchedulerFiguresPoolsAndBothSwitches() {
        pinning.record(new PinnedEvent(25_000_000, "t", "", List.of("a.B.<init>(line 1)")));

        String html = render(FIGURES, POOLS);

        assertThat(html).contains("<tr><td>Mode</td><td>virtual</td></tr>")
                .contains("<tr><td>Admitted / rejected / completed</td><td>0 / 0 / 0</td></tr>")
                .contains("<tr><td>Parallelism</td><td>4</td></tr>")
                .contains("<tr><td>Pool size (carrier threads)</td><td>3</td></tr>")
                .contains("<tr><td>Mounted virtual threads</td><td>2</td></tr>")
                .contains("<tr><td>Queued virtual threads</td><td>7</td></tr>")
                .contains("<tr><td>default</td><td>virtual</td><td>10</td>")
                .contains("name=\"mode\" value=\"kernel\"", "name=\"mode\" value=\"virtual\"")
                .contains(">Switch HTTP requests to kernel</button>")
                .contains("<button type=\"submit\" disabled>Switch HTTP requests to virtual</button>")
                .contains("name=\"poolsMode\" value=\"kernel\"", "name=\"poolsMode\" value=\"virtual\"")
                .contains(">Switch all Sling thread pools to kernel</button>")
                .contains(">Switch all Sling thread pools to virtual</button>")
                .contains("action=\"/system/console/slingvt\"")
                .contains("<a href=\"/system/console/configMgr/io.github.slingvt.threads.VirtualThreadPools\">")
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
        assertThat(html).contains("<tr><td><a href=\"/system/console/configMgr/io.github.slingvt.demo.ContentSeeder\">"
                + "io.github.slingvt.demo.ContentSeeder</a></td><td>folders</td><td>&lt;b&gt;x&lt;/b&gt;</td>"
                + "<td>a whole number from 1 to 10000</td></tr>");
    }

    @Test
    void saysSoWhenThreadPoolsBundleOrSchedulerIsMissing() {
        String html = render(SchedulerStats.Figures.unavailable(SchedulerStats.NOT_AVAILABLE), null);

        assertThat(html).contains("<tr><td>Scheduler</td><td>not available (needs JDK 24+)</td></tr>")
                .doesNotContain("Parallelism")
                .contains("Not available: the bundle commons-threads-virtual is not active.")
                .doesNotContain("Switch all Sling thread pools");
    }

    @Test
    void keepsThePoolsAndPinningWhenTheHttpBundleIsMissing() {
        httpActive = false;

        String html = render(FIGURES, POOLS);

        assertThat(html).contains("<p id='slingvt-http'>Not available: the bundle http-virtual-threadpool is not active.</p>")
                .doesNotContain("Switch HTTP requests").doesNotContain("slingvt-live")
                .contains(">Switch all Sling thread pools to kernel</button>")
                .contains("<tr><td>Parallelism</td><td>4</td></tr>")
                .contains("Pinned virtual threads");
    }

    @Test
    void escapesPoolNamesAndSettings() {
        ThreadPools pools = new Fakes.Pools("poolModes=[<x>=kernel]",
                List.of(new ThreadPoolSnapshot("pool <x> & y", ThreadPoolMode.KERNEL, 1, 0, 0, 0, 5, 0)), List.of());

        assertThat(render(FIGURES, pools)).contains("<td>pool &lt;x&gt; &amp; y</td><td>kernel</td>")
                .contains("<code>poolModes=[&lt;x&gt;=kernel]</code>");
    }

    @Test
    void aFailingSectionDoesNotBreakThePage() {
        sections.add(new Section("Broken", () -> {
            throw new IllegalStateException("<boom>");
        }));

        assertThat(render(FIGURES, POOLS))
                .contains("This section failed: java.lang.IllegalStateException: &lt;boom&gt;")
                .contains("Pinned virtual threads");
    }

    @Test
    void showsOtherBundlesSectionsUnderTheirEscapedTitle() {
        sections.add(new Section("Repository & JDBC pool", () -> "<table class='nicetable' id='slingvt-repository'>"
                + "<tr><td>Threads waiting for a connection</td><td>12</td></tr></table>"));

        String html = render(FIGURES, null);

        assertThat(html).contains(">Repository &amp; JDBC pool</div>")
                .contains("<tr><td>Threads waiting for a connection</td><td>12</td></tr>");
        sections.clear();
        assertThat(render(FIGURES, null)).doesNotContain("Repository").doesNotContain("id='slingvt-repository'");
    }

    private record Section(String title, Supplier<String> body) implements ConsoleSection {
        @Override
        public void printHtml(PrintWriter out) {
            out.print(body.get());
        }
    }

    private String render(SchedulerStats.Figures figures, ThreadPools pools) {
        StringWriter out = new StringWriter();
        ConsolePage.render(new PrintWriter(out), new ConsolePage.View("/system/console/slingvt", "/system/console",
                httpActive ? http.snapshot() : null, pinning, figures, pools, sections, problems));
        return out.toString();
    }
}
