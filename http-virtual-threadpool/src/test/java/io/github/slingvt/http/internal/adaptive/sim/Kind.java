package io.github.slingvt.http.internal.adaptive.sim;

import java.util.Random;

/**
 * A kind of request: {@code cpuMillis} of work on a carrier in {@code waits + 1} equal pieces with a wait of
 * {@code waitMillis} (repository, remote call; no carrier) between two pieces. Each piece and each wait is drawn
 * uniformly within {@link #SPREAD} of its mean, so that waits end at random as real ones do.
 */
record Kind(String name, double cpuMillis, int waits, double waitMillis) {

    /** A piece or a wait lasts between (1 - SPREAD) and (1 + SPREAD) times its mean. */
    static final double SPREAD = 0.5;

    /** Renders a page from memory: 5 ms on a carrier, no wait. */
    static final Kind CPU = new Kind("cpu 5ms", 5, 0, 0);
    /** A quick call that waits 100 ms for a remote answer (R100ms). */
    static final Kind WAIT_100MS = new Kind("wait 100ms", 0.2, 1, 100);
    /** A call that waits a second (R1s). */
    static final Kind WAIT_1S = new Kind("wait 1s", 0.2, 1, 1_000);
    /**
     * A call that waits 100 ms and works 0.6 ms on a carrier (the benchmark's R100ms: repository reads and hashing
     * around its wait): 1,000 clients per carrier keep the carriers saturated while most requests wait.
     */
    static final Kind WAIT_100MS_WORK = new Kind("wait 100ms + 0.6ms", 0.6, 1, 100);
    /** A page: 2 ms of rendering in five pieces between four repository reads of 10 ms. */
    static final Kind PAGE = new Kind("page", 2, 4, 10);

    /** The phases of one request: CPU, wait, CPU, ..., CPU, in milliseconds (even index CPU, odd index wait). */
    double[] phases(Random random) {
        double[] phases = new double[2 * waits + 1];
        double piece = cpuMillis / (waits + 1);
        for (int i = 0; i < phases.length; i++) {
            double mean = i % 2 == 0 ? piece : waitMillis;
            phases[i] = mean * (1 - SPREAD + 2 * SPREAD * random.nextDouble());
        }
        return phases;
    }
}
