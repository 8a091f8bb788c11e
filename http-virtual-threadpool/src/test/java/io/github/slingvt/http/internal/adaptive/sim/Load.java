package io.github.slingvt.http.internal.adaptive.sim;

import java.util.Random;

/**
 * What the clients send. Closed: {@code clients} clients, each sending its next request when the answer to the last
 * arrives, waiting as long as it takes. Open: Poisson arrivals at {@code perSecond}, each client giving up after
 * {@code timeoutMillis} (then its request is dropped from the admission queue unrun, as the gate drops a waiter whose
 * client closed its connection, or answered late if it already runs). The kind of each request comes from
 * {@code mix}, which may change with time.
 */
record Load(String name, int clients, double perSecond, double timeoutMillis, Mix mix) {

    /** How long an open-model client waits for its answer, a load balancer's or browser's usual patience. */
    static final double OPEN_TIMEOUT_MILLIS = 10_000;

    /** The kind of the next request. */
    interface Mix {
        Kind next(double nowMillis, Random random);

        /** The mean CPU of a request, for the carriers' capacity. */
        double meanCpuMillis();
    }

    static Mix only(Kind kind) {
        return new Mix() {
            @Override
            public Kind next(double nowMillis, Random random) {
                return kind;
            }

            @Override
            public double meanCpuMillis() {
                return kind.cpuMillis();
            }
        };
    }

    /** Both kinds in one stream: {@code first} with probability {@code share}, otherwise {@code second}. */
    static Mix mixed(Kind first, double share, Kind second) {
        return new Mix() {
            @Override
            public Kind next(double nowMillis, Random random) {
                return random.nextDouble() < share ? first : second;
            }

            @Override
            public double meanCpuMillis() {
                return share * first.cpuMillis() + (1 - share) * second.cpuMillis();
            }
        };
    }

    /** {@code kinds[i]} from {@code i * everyMillis} on: the load changes while it runs. */
    static Mix changing(double everyMillis, Kind... kinds) {
        return new Mix() {
            @Override
            public Kind next(double nowMillis, Random random) {
                return kinds[(int) Math.min(kinds.length - 1, nowMillis / everyMillis)];
            }

            @Override
            public double meanCpuMillis() {
                throw new UnsupportedOperationException("changes with time");
            }
        };
    }

    static Load closed(int clients, Mix mix, String name) {
        return new Load(name, clients, 0, Double.POSITIVE_INFINITY, mix);
    }

    /** Open at {@code share} of the carriers' capacity without any cost of concurrency. */
    static Load open(int carriers, double share, Mix mix, String name) {
        return new Load(name, 0, share * carriers * 1_000 / mix.meanCpuMillis(), OPEN_TIMEOUT_MILLIS, mix);
    }

    boolean isOpen() {
        return perSecond > 0;
    }
}
