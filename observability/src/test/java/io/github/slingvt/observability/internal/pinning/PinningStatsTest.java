package io.github.slingvt.observability.internal.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class PinningStatsTest {

    private static PinnedEvent event(long millis, String... frames) {
        return new PinnedEvent(millis * 1_000_000, "slingvt-http-1", "Native frame or <clinit> on stack", List.of(frames));
    }

    @Test
    void countsEveryEventAndGroupsByStack() {
        PinningStats stats = new PinningStats();
        stats.record(event(25, "a.A.x(line 1)", "b.B.y(line 2)"));
        stats.record(event(40, "a.A.x(line 1)", "b.B.y(line 2)"));
        stats.record(event(30, "c.C.z(line 3)"));

        assertThat(stats.count()).isEqualTo(3);
        List<PinningStats.StackCount> top = stats.topStacks();
        assertThat(top).hasSize(2);
        assertThat(top.get(0).frames()).containsExactly("a.A.x(line 1)", "b.B.y(line 2)");
        assertThat(top.get(0).count()).isEqualTo(2);
        assertThat(top.get(0).maxDurationNanos()).isEqualTo(40_000_000);
        assertThat(top.get(1).count()).isEqualTo(1);
    }

    @Test
    void logsOnlyTheFirstOccurrenceOfEachStack() {
        PinningStats stats = new PinningStats();
        assertThat(stats.record(event(25, "a.A.x(line 1)"))).isTrue();
        assertThat(stats.record(event(25, "a.A.x(line 1)"))).isFalse();
        assertThat(stats.record(event(25, "c.C.z(line 3)"))).isTrue();
        assertThat(stats.record(event(99, "a.A.x(line 1)"))).isFalse();
    }

    @Test
    void keepsOnlyTheMostFrequentStacks() {
        PinningStats stats = new PinningStats();
        stats.setMaxStacks(3);
        for (int i = 0; i < 5; i++) {
            stats.record(event(20, "frequent.F.f(line 1)"));
        }
        for (int i = 0; i < 3; i++) {
            stats.record(event(20, "second.S.s(line 1)"));
        }
        for (int i = 0; i < 100; i++) {
            stats.record(event(20, "rare.R.r" + i + "(line 1)"));
        }

        assertThat(stats.count()).isEqualTo(108);
        List<PinningStats.StackCount> top = stats.topStacks();
        assertThat(top).hasSize(3);
        assertThat(top.get(0).frames()).containsExactly("frequent.F.f(line 1)");
        assertThat(top.get(1).frames()).containsExactly("second.S.s(line 1)");
    }

    @Test
    void aStackEvictedFromTheTableIsNotLoggedAgain() {
        PinningStats stats = new PinningStats();
        stats.setMaxStacks(1);
        assertThat(stats.record(event(20, "one.O.o(line 1)"))).isTrue();
        assertThat(stats.record(event(20, "two.T.t(line 1)"))).isTrue();
        assertThat(stats.record(event(20, "one.O.o(line 1)"))).isFalse();
        assertThat(stats.topStacks()).hasSize(1);
    }

    @Test
    void shrinkingTheBoundDropsTheLeastFrequent() {
        PinningStats stats = new PinningStats();
        stats.record(event(20, "a(line 1)"));
        stats.record(event(20, "b(line 1)"));
        stats.record(event(20, "b(line 1)"));
        stats.setMaxStacks(1);
        assertThat(stats.topStacks()).extracting(PinningStats.StackCount::frames).containsExactly(List.of("b(line 1)"));
    }

    @Test
    void textAndHtmlShowTheStacksEscaped() {
        PinningStats stats = new PinningStats();
        stats.record(event(42, "x.Y.<clinit>(line 7)"));
        java.io.StringWriter text = new java.io.StringWriter();
        PinningText.printText(new java.io.PrintWriter(text), stats);
        assertThat(text.toString()).contains("Pinned virtual threads: 1").contains("1 time, longest 42 ms")
                .contains("at x.Y.<clinit>(line 7)");
        java.io.StringWriter html = new java.io.StringWriter();
        PinningText.printHtml(new java.io.PrintWriter(html), stats);
        assertThat(html.toString()).contains("x.Y.&lt;clinit&gt;(line 7)").doesNotContain("<clinit>");
    }

    @Test
    void theRemedyNamesThePoolAndTheConfigurationLineThatMovesIt() {
        assertThat(PinningText.remedy(stack("sling-oak-vt-3"))).isEqualTo("thread sling-oak-vt-3 of Sling pool 'oak': "
                + "to run that pool on platform threads, add poolModes=oak=kernel to io.github.slingvt.threads.VirtualThreadPools");
        assertThat(PinningText.remedy(stack("async-index-update-async"))).contains("Sling pool 'oak'")
                .contains("poolModes=oak=kernel");
        assertThat(PinningText.remedy(stack("slingvt-http-12"))).contains("mode=kernel in io.github.slingvt.http.VirtualThreads");
        assertThat(PinningText.remedy(stack("other"))).isEqualTo("thread other");
    }

    private static PinningStats.StackCount stack(String thread) {
        return new PinningStats.StackCount(java.util.List.of("a.B.c(line 1)"), "", 1, 25_000_000, thread);
    }
}
