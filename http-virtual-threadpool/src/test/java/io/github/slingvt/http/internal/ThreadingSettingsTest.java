package io.github.slingvt.http.internal;

import io.github.slingvt.http.api.ThreadingMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThreadingSettingsTest {

    @Test
    void defaultsAreVirtualAndUnbounded() {
        ThreadingSettings s = ThreadingSettings.DEFAULTS;
        assertThat(s.mode()).isEqualTo(ThreadingMode.VIRTUAL);
        assertThat(s.bounded()).isFalse();
        assertThat(s.kernelMaxThreads()).isEqualTo(200);
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
}
