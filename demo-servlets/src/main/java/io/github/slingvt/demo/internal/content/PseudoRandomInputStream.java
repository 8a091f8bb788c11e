package io.github.slingvt.demo.internal.content;

import java.io.InputStream;
import java.util.SplittableRandom;

/**
 * A fixed number of pseudo-random bytes from a seed: the same seed always gives the same content (so a reader can
 * check what it got), and the content does not compress, unlike zeros would in a store or on the wire.
 */
public final class PseudoRandomInputStream extends InputStream {

    private final SplittableRandom random;
    private long remaining;

    public PseudoRandomInputStream(String seed, long length) {
        this.random = new SplittableRandom(seed.hashCode());
        this.remaining = length;
    }

    @Override
    public int read() {
        if (remaining <= 0) {
            return -1;
        }
        remaining--;
        return random.nextInt(256);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (remaining <= 0) {
            return -1;
        }
        int n = (int) Math.min(length, remaining);
        for (int i = 0; i < n; i++) {
            buffer[offset + i] = (byte) random.nextInt(256);
        }
        remaining -= n;
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, remaining);
    }
}
