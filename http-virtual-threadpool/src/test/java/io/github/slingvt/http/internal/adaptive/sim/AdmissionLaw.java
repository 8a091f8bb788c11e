package io.github.slingvt.http.internal.adaptive.sim;

/**
 * What the simulation needs of an admission law, and all it may use: a reading of the carriers every
 * {@link #PERIOD_MILLIS} ms in, a limit on the requests in flight out. A new law plugs in here without touching the
 * model. A law keeps state between readings, so the model takes a fresh one for every run.
 */
interface AdmissionLaw {

    /** Time between two readings, as {@code AdaptiveAdmission.PERIOD_MILLIS}. */
    double PERIOD_MILLIS = 100;

    /** No limit at all. */
    int UNBOUNDED = Integer.MAX_VALUE;

    /** The limit before the first reading. */
    int initialLimit();

    /** One reading; returns the limit from now on. */
    int read(Reading reading);

    /**
     * What the real code can read every period.
     *
     * @param carriers the carriers (the scheduler's parallelism)
     * @param mounted virtual threads on a carrier now
     * @param queued runnable virtual threads waiting for a carrier now
     * @param running requests admitted and not yet answered
     * @param waiting requests waiting for admission
     * @param cpuLoad busy carrier time of the period over carriers &times; period, from 0 to 1
     */
    record Reading(int carriers, long mounted, long queued, int running, int waiting, double cpuLoad) {
    }

    /** A constant limit: a pool of {@code size} threads behind the same queue, or {@link #UNBOUNDED}. */
    static AdmissionLaw fixed(int size) {
        return new AdmissionLaw() {
            @Override
            public int initialLimit() {
                return size;
            }

            @Override
            public int read(Reading reading) {
                return size;
            }
        };
    }

    /**
     * {@code law} with its output multiplied by {@code factor} (at least 1): a deliberately wrong law, to check that
     * an assertion can fail. Used only when the system property {@code sim.limitScale} is set.
     */
    static AdmissionLaw scaled(AdmissionLaw law, double factor) {
        return new AdmissionLaw() {
            @Override
            public int initialLimit() {
                return scale(law.initialLimit());
            }

            @Override
            public int read(Reading reading) {
                return scale(law.read(reading));
            }

            private int scale(int limit) {
                return limit == UNBOUNDED ? limit : (int) Math.max(1, Math.min(UNBOUNDED, Math.round(limit * factor)));
            }
        };
    }
}
