package io.github.slingvt.observability.internal.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.github.slingvt.config.internal.ConfigGuardService;
import org.junit.jupiter.api.Test;

/** A configuration change restarts the JFR stream in place: the same detector, the new settings in force. */
class PinningDetectorTest {

    @Test
    void aChangedConfigurationRestartsTheStreamInPlace() {
        PinningDetector detector = new PinningDetector(new ConfigGuardService(), Map.of("thresholdMillis", 20));
        try {
            assertThat(detector.detectorState()).isEqualTo("streaming " + JfrPinningStream.EVENT + " >= 20 ms");
            detector.modified(Map.of("thresholdMillis", 50));
            assertThat(detector.detectorState()).isEqualTo("streaming " + JfrPinningStream.EVENT + " >= 50 ms");
            detector.modified(Map.of("enabled", false));
            assertThat(detector.detectorState()).startsWith("disabled by configuration " + PinningDetectorConfig.PID);
            detector.modified(Map.of("thresholdMillis", "lots"));
            assertThat(detector.detectorState()).as("a refused value: the previous settings stay")
                    .startsWith("disabled by configuration");
            detector.modified(Map.of());
            assertThat(detector.detectorState()).isEqualTo("streaming " + JfrPinningStream.EVENT + " >= 20 ms");
        } finally {
            detector.deactivate();
        }
        assertThat(detector.detectorState()).isEqualTo("not running");
    }
}
