package io.github.slingvt.observability.internal.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import io.github.slingvt.observability.internal.Fakes;
import io.github.slingvt.threads.api.ConfiguredPool;
import io.github.slingvt.threads.api.ThreadPoolMode;
import io.github.slingvt.threads.api.ThreadPoolSnapshot;
import org.apache.felix.inventory.Format;
import org.junit.jupiter.api.Test;

/** The pools as ./sling-vt status reads them (JSON), as status dumps show them (TEXT) and as the console page does. */
class ThreadPoolsStatusPrinterTest {

    private static final Fakes.Pools POOLS = new Fakes.Pools("defaultMode=virtual, poolModes=[k=kernel]", List.of(
            new ThreadPoolSnapshot("k", ThreadPoolMode.KERNEL, 0, 0, 0, 0, 5, 0),
            new ThreadPoolSnapshot("p", ThreadPoolMode.VIRTUAL, 0, 0, 1, 0, 5, 0),
            new ThreadPoolSnapshot("<script>alert('x')</script>", ThreadPoolMode.VIRTUAL, 1, 0, 0, 0,
                    Integer.MAX_VALUE, 1)),
            List.of(new ConfiguredPool("k", "org.apache.sling.commons.threads.impl.DefaultThreadPool.factory~k", 5, -1,
                    "RUN")));

    @Test
    void jsonHasOneObjectPerPoolWithModeAndCounters() {
        Fakes.Pools two = new Fakes.Pools(POOLS.settings(), POOLS.pools().subList(0, 2), List.of());

        assertThat(print(two, Format.JSON)).isEqualTo("{"
                + "\"k\":{\"mode\":\"kernel\",\"running\":0,\"queued\":0,\"completed\":0,\"rejected\":0,\"maxPoolSize\":5},"
                + "\"p\":{\"mode\":\"virtual\",\"running\":0,\"queued\":0,\"completed\":1,\"rejected\":0,\"maxPoolSize\":5}}");
    }

    @Test
    void textNamesTheSettingsEveryPoolAndTheConfigurations() {
        assertThat(print(POOLS, Format.TEXT)).contains("defaultMode=virtual, poolModes=[k=kernel]")
                .contains("k\n  mode: kernel, maxPoolSize: 5, running: 0, queued: 0, completed: 0, rejected: 0\n")
                .contains("maxPoolSize: unlimited").contains("draining after a switch: 1 executor(s)")
                .contains("Configured pools (org.apache.sling.commons.threads.impl.DefaultThreadPool.factory): 1")
                .contains("  k (org.apache.sling.commons.threads.impl.DefaultThreadPool.factory~k): maxPoolSize 5, "
                        + "queueSize -1, blockPolicy RUN");
    }

    @Test
    void htmlHasOneRowPerPoolWithModeAndCountersAndEscapesLabels() {
        String html = print(POOLS, Format.HTML);

        assertThat(html).contains("defaultMode=virtual, poolModes=[k=kernel]")
                .contains("<tr><td>k</td><td>kernel</td><td>5</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>")
                .contains("<tr><td>p</td><td>virtual</td><td>5</td><td>0</td><td>0</td><td>1</td><td>0</td></tr>")
                .contains("&lt;script&gt;alert('x')&lt;/script&gt;")
                .doesNotContain("<script>");
    }

    @Test
    void htmlSaysSoWhenNoPoolIsInUse() {
        assertThat(print(new Fakes.Pools("defaultMode=kernel, poolModes=[]", List.of(), List.of()), Format.HTML))
                .contains("defaultMode=kernel").contains("No pool in use yet.");
    }

    private static String print(Fakes.Pools pools, Format format) {
        StringWriter out = new StringWriter();
        new ThreadPoolsStatusPrinter(pools).print(new PrintWriter(out), format, false);
        return out.toString().replace(System.lineSeparator(), "\n");
    }
}
