package io.github.slingvt.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request waiting in the {@link AdmissionGate}: exactly one of its {@link Outcomes} happens, decided by whoever takes
 * it off the gate's queue (under the gate's lock): admitted, refused (timed out, or displaced by a newer one), or
 * failed by Jetty while it waited.
 */
final class Waiter {

    private static final Logger LOG = LoggerFactory.getLogger(Waiter.class);

    private final AdmissionGate gate;
    private final Outcomes outcomes;
    /** When it began to wait, on the gate's clock. */
    private final long since;
    /** Off the queue: a failure reported by Jetty after that is the running request's own. */
    private final AtomicBoolean done = new AtomicBoolean();

    Waiter(AdmissionGate gate, Outcomes outcomes, long since) {
        this.gate = gate;
        this.outcomes = outcomes;
        this.since = since;
    }

    long since() {
        return since;
    }

    /**
     * Runs waiters just taken off the queue, each with the slot taken for it. A callback that throws is logged and the
     * rest still run: they are off the queue, and nothing else would answer them before their clients time out. The
     * slot of the one that threw is given back, unless the callback gave it back itself before it threw; the waiters
     * that slot admits run in the same loop, without recursion.
     */
    static void runAll(List<Waiter> admitted) {
        List<Waiter> next = admitted;
        while (!next.isEmpty()) {
            List<Waiter> more = List.of();
            for (Waiter waiter : next) {
                Slot slot = new Slot(waiter.gate);
                try {
                    waiter.done.set(true);
                    waiter.outcomes.admit().accept(slot);
                } catch (RuntimeException | Error e) {
                    LOG.error("A request taken off the admission queue could not be started; the others go on", e);
                    if (slot.claim()) {
                        more = join(more, waiter.gate.gaveBack());
                    }
                }
            }
            next = more;
        }
    }

    private static List<Waiter> join(List<Waiter> more, List<Waiter> admitted) {
        if (more.isEmpty()) {
            return admitted;
        }
        if (admitted.isEmpty()) {
            return more;
        }
        List<Waiter> all = new ArrayList<>(more);
        all.addAll(admitted);
        return all;
    }

    /** Off the queue without being admitted (timed out, or displaced by a newer request): answered as refused. */
    void refuse() {
        done.set(true);
        outcomes.reject().run();
    }

    /**
     * Jetty failed the request (its listener, registered while it waits): if it still waits, it leaves the queue at
     * once, unrun. Once it stopped waiting this does nothing: a request that runs handles its failure.
     */
    void failed(Throwable failure) {
        if (!done.get() && gate.withdrawn(this)) {
            done.set(true);
            outcomes.failed().accept(failure);
        }
    }
}
