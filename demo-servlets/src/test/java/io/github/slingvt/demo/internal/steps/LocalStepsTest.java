package io.github.slingvt.demo.internal.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

public class LocalStepsTest {

    @Test
    void idleWaitsAtLeastTheRequestedTime() throws Exception {
        long start = System.nanoTime();
        LocalSteps.idle(60, "idleDelay");
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(60);
    }

    @Test
    void idleOfZeroReturnsAtOnce() throws Exception {
        long start = System.nanoTime();
        LocalSteps.idle(0, "idleDelay");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(50);
    }

    @Test
    void interruptedIdleFailsTheStepAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> LocalSteps.idle(10_000, "idleDelay"))
                    .isInstanceOfSatisfying(WorkException.class, e -> assertThat(e.step()).isEqualTo("idleDelay"));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void cpuDoesEveryRound() throws Exception {
        // The same rounds done independently: digest of the 256-byte block, written back into its first 32 bytes.
        byte[] block = new byte[256];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) i;
        }
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < 3; i++) {
            System.arraycopy(sha.digest(block), 0, block, 0, 32);
        }
        WorkReport.Cpu cpu = LocalSteps.cpu(3);
        assertThat(cpu.iterations()).isEqualTo(3);
        assertThat(cpu.digest()).isEqualTo(HexFormat.of().formatHex(block, 0, 32));
    }

    @Test
    void eachRoundChangesTheDigest() {
        assertThat(LocalSteps.cpu(1000).digest()).isNotEqualTo(LocalSteps.cpu(999).digest());
        assertThat(LocalSteps.cpu(1000).digest()).isEqualTo(LocalSteps.cpu(1000).digest()).hasSize(64);
    }

    @Test
    void zeroIterationsDoNothing() {
        assertThat(LocalSteps.cpu(0)).isEqualTo(new WorkReport.Cpu(0, null));
    }
}
