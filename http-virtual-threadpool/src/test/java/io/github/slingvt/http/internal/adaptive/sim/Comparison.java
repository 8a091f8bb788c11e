package io.github.slingvt.http.internal.adaptive.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * One case run three times on the same seed: with the law under test, unbounded, and with a fixed pool of
 * {@link #POOL} (Jetty's default pool behind the same queue, as kernel mode runs). The law under test is the
 * {@link CurrentLaw} unless another is plugged in here; the system property {@code sim.limitScale} multiplies its
 * output, to check that the assertions can fail (e.g. {@code -Dsim.limitScale=0.5}).
 */
record Comparison(int carriers, Load load, Run law, Run unbounded, Run pool) {

    /** The size of Jetty's default thread pool, the pool the default replaces. */
    static final int POOL = 200;
    /** Every case runs on this seed: the results are the same on every run. */
    static final long SEED = 85;
    /** The law under test, fresh for every run. */
    static final Supplier<AdmissionLaw> LAW_UNDER_TEST = () -> {
        String scale = System.getProperty("sim.limitScale");
        return scale == null ? new CurrentLaw() : AdmissionLaw.scaled(new CurrentLaw(), Double.parseDouble(scale));
    };

    static Comparison of(int carriers, Load load, double seconds, double warmupSeconds) {
        return new Comparison(carriers, load, lawOnly(carriers, load, seconds, warmupSeconds),
                CarrierModel.run(carriers, AdmissionLaw.fixed(AdmissionLaw.UNBOUNDED), load, SEED, seconds,
                        warmupSeconds),
                CarrierModel.run(carriers, AdmissionLaw.fixed(POOL), load, SEED, seconds, warmupSeconds));
    }

    static Run lawOnly(int carriers, Load load, double seconds, double warmupSeconds) {
        return CarrierModel.run(carriers, LAW_UNDER_TEST.get(), load, SEED, seconds, warmupSeconds);
    }

    /** The law's answers in time over the better of unbounded and the pool. */
    double ofBest() {
        return law.inTime() / Math.max(unbounded.inTime(), pool.inTime());
    }

    double ofUnbounded() {
        return law.inTime() / unbounded.inTime();
    }

    /** A table of cases, printed at the end of a test class. */
    static final class Table {
        private final String title;
        private final List<String> rows = new ArrayList<>();

        Table(String title) {
            this.title = title;
        }

        synchronized void add(Comparison c, String model, double secondsToConverge, String verdict) {
            Run law = c.law();
            String converged = Double.isNaN(secondsToConverge) ? "-"
                    : String.format(Locale.ROOT, "%.1f", secondsToConverge);
            rows.add(String.format(Locale.ROOT,
                    "| %2d | %-22s | %-6s | %8.0f | %8.0f | %8.0f | %5.2f | %5.2f | %5d | %6d | %7.0f | %5s | %s |",
                    c.carriers(), c.load().name(), model, law.inTime(), c.unbounded().inTime(), c.pool().inTime(),
                    c.ofUnbounded(), c.ofBest(), law.limitAtEnd(), law.maxInFlight(law.seconds - 1, law.seconds),
                    law.admissionWait(0.99), converged, verdict));
        }

        synchronized void print() {
            System.out.println();
            System.out.println(title);
            System.out.println("| P  | workload               | model  | law/s    | unb/s    | pool/s   | /unb  "
                    + "| /best | limit | flight | p99wait | conv  | verdict |");
            System.out.println("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
            rows.forEach(System.out::println);
        }
    }
}
