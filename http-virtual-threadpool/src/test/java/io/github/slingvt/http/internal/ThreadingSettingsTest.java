package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import io.github.slingvt.config.ConfigReader;
import io.github.slingvt.config.internal.PropertyReader;
import org.junit.jupiter.api.Test;

class ThreadingSettingsTest {

    @Test
    void defaultsAreVirtualWithAdmissionByTheCarriers() {
        ThreadingSettings s = ThreadingSettings.DEFAULTS;
        assertThat(s.mode()).isEqualTo(ThreadingMode.VIRTUAL);
        assertThat(s.adaptive()).isTrue();
        assertThat(s.capLabel()).isEqualTo("auto");
        assertThat(s.kernelMaxThreads()).isEqualTo(200);
        assertThat(read(Map.of())).isEqualTo(s);
        assertThat(read(Map.of("mode", "virtual"))).isEqualTo(s);
    }

    @Test
    void unboundedStaysAvailableByNameAndAsZero() {
        for (Object unbounded : new Object[] {"unbounded", " Unbounded ", "0", 0}) {
            ThreadingSettings s = read(Map.of("maxConcurrentRequests", unbounded));
            assertThat(s.bounded()).as("%s", unbounded).isFalse();
            assertThat(s.adaptive()).as("%s", unbounded).isFalse();
            assertThat(s.capLabel()).isEqualTo("0");
        }
    }

    @Test
    void modeIsParsedCaseInsensitively() {
        assertThat(ThreadingMode.parse(" Kernel ")).isEqualTo(ThreadingMode.KERNEL);
        assertThat(ThreadingMode.parse("VIRTUAL")).isEqualTo(ThreadingMode.VIRTUAL);
    }

    @Test
    void unknownModeNamesTheFix() {
        assertThatThrownBy(() -> ThreadingMode.parse("kernl"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mode='kernl'")
                .hasMessageContaining("'virtual' or 'kernel'");
    }

    @Test
    void negativeCapIsRefusedWithItsRange() {
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, -1, 2000, 10, 1, 200, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxConcurrentRequests=-1")
                .hasMessageContaining("from 0 to 1000000");
    }

    @Test
    void everyLimitIsChecked() {
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, 10, 0, 10, 1, 200, 32))
                .hasMessageContaining("queueTimeout=0");
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, 10, 10, -5, 1, 200, 32))
                .hasMessageContaining("maxQueuedRequests=-5");
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, 10, 10, 5, 0, 200, 32))
                .hasMessageContaining("retryAfterSeconds=0");
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.KERNEL, 0, 10, 5, 1, 2, 32))
                .hasMessageContaining("kernelMaxThreads=2");
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 10, 5, 1, 200, 4))
                .hasMessageContaining("virtualModePlatformThreads=4");
    }

    @Test
    void jettyPoolSizeFollowsTheMode() {
        assertThat(new ThreadingSettings(ThreadingMode.KERNEL, 0, 10, 5, 1, 300, 16).platformThreads()).isEqualTo(300);
        assertThat(new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 10, 5, 1, 300, 16).platformThreads()).isEqualTo(16);
        assertThat(ThreadingSettings.DEFAULTS.platformThreads()).isEqualTo(ThreadingSettings.AUTO);
        assertThat(new ThreadingSettings(ThreadingMode.KERNEL, 0, 10, 5, 1, 300, 0).platformThreads()).isEqualTo(300);
    }

    @Test
    void maxConcurrentRequestsTakesAutoOrANumberOfEitherType() {
        ThreadingSettings auto = read(Map.of("maxConcurrentRequests", " AUTO ", "adaptiveMinLimit", 5,
                "adaptiveMaxLimit", 500));
        assertThat(auto.adaptive()).isTrue();
        assertThat(auto.bounded()).isTrue();
        assertThat(auto.maxConcurrentRequests()).isZero();
        assertThat(auto.capLabel()).isEqualTo("auto");
        assertThat(auto.adaptiveMinLimit()).isEqualTo(5);
        assertThat(auto.adaptiveMaxLimit()).isEqualTo(500);

        // Configurations written before 'auto' existed hold an Integer; the metatype now writes a String.
        assertThat(read(Map.of("maxConcurrentRequests", 40)).maxConcurrentRequests()).isEqualTo(40);
        assertThat(read(Map.of("maxConcurrentRequests", "40")).maxConcurrentRequests()).isEqualTo(40);
        assertThat(read(Map.of("maxConcurrentRequests", "40")).adaptive()).isFalse();
        assertThat(read(Map.of()).capLabel()).isEqualTo("auto");
    }

    @Test
    void aCapThatIsNeitherAutoNorANumberIsRefusedNamingBoth() {
        ConfigReader r = new PropertyReader("pid", Map.of("maxConcurrentRequests", "lots"));
        ThreadingSettings.read(r);
        assertThat(r.problems()).singleElement()
                .satisfies(p -> assertThat(p.allowed()).isEqualTo("auto or a whole number from 0 to 1000000"));
    }

    @Test
    void adaptiveBoundsAreChecked() {
        ConfigReader r = new PropertyReader("pid", Map.of("maxConcurrentRequests", "auto", "adaptiveMinLimit", 100,
                "adaptiveMaxLimit", 50));
        ThreadingSettings.read(r);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.property()).isEqualTo("adaptiveMaxLimit");
            assertThat(p.allowed()).contains("from adaptiveMinLimit (100)");
        });
        ConfigReader zero = new PropertyReader("pid", Map.of("adaptiveMinLimit", 0));
        ThreadingSettings.read(zero);
        assertThat(zero.problems()).singleElement().satisfies(p -> assertThat(p.property()).isEqualTo("adaptiveMinLimit"));
        assertThatThrownBy(() -> new ThreadingSettings(ThreadingMode.VIRTUAL, 10, 10, 5, 1, 200, 0, true, 1, 10))
                .hasMessageContaining("'auto' or a number, not both");
    }

    @Test
    void connectionHeaderCacheIsReadCheckedAndDefaultsToNone() {
        assertThat(ThreadingSettings.DEFAULTS.connectionHeaderCache()).isZero();
        assertThat(ThreadingSettings.read(new PropertyReader("pid", Map.of())).connectionHeaderCache()).isZero();
        ConfigReader felix = new PropertyReader("pid", Map.of("connectionHeaderCache", -1));
        assertThat(ThreadingSettings.read(felix).connectionHeaderCache())
                .isEqualTo(ThreadingSettings.FELIX_HEADER_CACHE);
        assertThat(felix.problems()).isEmpty();
        ConfigReader bad = new PropertyReader("pid", Map.of("connectionHeaderCache", -2));
        ThreadingSettings.read(bad);
        assertThat(bad.problems()).singleElement().satisfies(p -> {
            assertThat(p.property()).isEqualTo("connectionHeaderCache");
            assertThat(p.allowed()).contains("-1").contains("100000");
        });
        assertThat(new ThreadingSettings(ThreadingMode.VIRTUAL, 0, 2000, 10, 1, 200, 0).connectionHeaderCache())
                .isZero();
    }

    private static ThreadingSettings read(Map<String, Object> properties) {
        ConfigReader r = new PropertyReader("pid", properties);
        ThreadingSettings s = ThreadingSettings.read(r);
        assertThat(r.problems()).isEmpty();
        return s;
    }
}
