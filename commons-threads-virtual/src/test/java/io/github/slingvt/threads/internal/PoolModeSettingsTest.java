package io.github.slingvt.threads.internal;

import io.github.slingvt.threads.api.ThreadPoolMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.github.slingvt.config.internal.PropertyReader;
import org.junit.jupiter.api.Test;

/** JDK-aware defaults: before JDK 24 a pool known to block inside synchronized defaults to kernel. */
class PoolModeSettingsTest {

    private static PoolModeSettings read(int jdk, Map<String, Object> properties) {
        return PoolModeSettings.read(new PropertyReader(VirtualThreadPoolsConfig.PID, properties), jdk);
    }

    @Test
    void onJdk21TheOakPoolRunsOnPlatformThreadsAndTheOthersStayVirtual() {
        PoolModeSettings settings = read(21, Map.of());
        assertThat(settings.modeFor("oak", null)).isEqualTo(ThreadPoolMode.KERNEL);
        assertThat(settings.modeFor("default", null)).isEqualTo(ThreadPoolMode.VIRTUAL);
        assertThat(settings.modeFor("ThreadPool-x (oak)", "oak")).as("an anonymous pool labelled oak is not the oak pool")
                .isEqualTo(ThreadPoolMode.VIRTUAL);
        assertThat(settings.toString()).contains("kernel on this JDK unless named in poolModes").contains("[oak]");
    }

    @Test
    void anExplicitEntryWinsOverTheJdkDefault() {
        assertThat(read(21, Map.of("poolModes", new String[] {"oak=virtual"})).modeFor("oak", null))
                .isEqualTo(ThreadPoolMode.VIRTUAL);
    }

    @Test
    void fromJdk24OnEveryPoolFollowsTheDefaultMode() {
        assertThat(read(24, Map.of()).modeFor("oak", null)).isEqualTo(ThreadPoolMode.VIRTUAL);
        assertThat(read(25, Map.of("defaultMode", "kernel")).modeFor("oak", null)).isEqualTo(ThreadPoolMode.KERNEL);
        assertThat(read(25, Map.of()).toString()).doesNotContain("unless named");
    }
}
