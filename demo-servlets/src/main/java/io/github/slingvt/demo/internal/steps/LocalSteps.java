package io.github.slingvt.demo.internal.steps;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The steps that need neither repository nor network: a blocking wait and SHA-256 rounds. */
public final class LocalSteps {

    private static final int BLOCK_SIZE = 256;
    private static final int DIGEST_SIZE = 32;

    private LocalSteps() {
    }

    /** Blocks the calling thread, like a call to a slow remote system would. */
    public static void idle(long millis, String step) throws WorkException {
        if (millis == 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException(step, "interrupted while waiting " + millis + " ms", e);
        }
    }

    /**
     * Hashes a 256-byte block {@code iterations} times, writing each digest back into the block so that no round
     * can be skipped or hoisted by the JIT.
     */
    public static WorkReport.Cpu cpu(int iterations) {
        if (iterations == 0) {
            return new WorkReport.Cpu(0, null);
        }
        MessageDigest sha256 = sha256();
        byte[] block = new byte[BLOCK_SIZE];
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) i;
        }
        try {
            for (int i = 0; i < iterations; i++) {
                sha256.update(block);
                sha256.digest(block, 0, DIGEST_SIZE);
            }
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 digest does not fit " + DIGEST_SIZE + " bytes", e);
        }
        return new WorkReport.Cpu(iterations, HexFormat.of().formatHex(block, 0, DIGEST_SIZE));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
    }
}
