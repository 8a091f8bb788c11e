package io.github.slingvt.http.internal.adaptive.sim;

import java.util.ArrayDeque;
import java.util.Random;

/**
 * A discrete-event model of virtual threads on P carriers behind an admission gate. A request is admitted when fewer
 * than the limit are in flight (otherwise it waits in a first-in first-out queue, as the gate's), then runs its
 * phases: a CPU piece needs a carrier and keeps it to its end; a runnable request without a free carrier waits in a
 * FIFO run queue, as in the JDK's ForkJoinPool scheduler; a wait holds no carrier. Concurrency has a cost: a CPU piece
 * takes {@link #COST_PER_REQUEST_PER_CARRIER} &times; (requests in flight / P) longer, for each request in flight
 * holds memory and per-session work (collector, Oak). Every {@link AdmissionLaw#PERIOD_MILLIS} the law reads the
 * carriers and sets the limit. Deterministic for a seed.
 */
final class CarrierModel {

    /**
     * The cost of concurrency, k in (1 + k &times; in flight / P). Fitted to the one measurement of it: at R1s on two
     * cores the CPU per request rose 69 % from C = 1,000 to C = 8,000 (in flight per carrier 500 to 4,000), so
     * (1 + 4,000k) / (1 + 500k) = 1.69, k = 2.2e-4. Small: a request in flight costs the others almost nothing, and
     * thousands of them cost a lot. Without it unbounded admission would always be best.
     */
    static final double COST_PER_REQUEST_PER_CARRIER = 2.2e-4;
    /** Closed-model clients start spread over this long, not all in the same instant. */
    static final double RAMP_MILLIS = 100;
    /** Admission waits are counted in 1 ms buckets up to this; longer ones in the last. */
    static final int WAIT_BUCKETS = 60_000;

    /** One request; it is its own event while it runs a CPU piece or waits. */
    private static final class Request {
        final double arrived;
        final double deadline;
        double[] phases;
        /** Index of the current phase; -1 before it arrives (a closed-model client's first). */
        int phase = -1;
        /** When the current phase ends. */
        double at;

        Request(double arrived, double deadline) {
            this.arrived = arrived;
            this.deadline = deadline;
        }
    }

    private final int carriers;
    private final AdmissionLaw law;
    private final Load load;
    private final Random random;
    private final double warmupMillis;
    private final Run run;

    private final ArrayDeque<Request> runQueue = new ArrayDeque<>();
    private final ArrayDeque<Request> admissionQueue = new ArrayDeque<>();
    private Request[] heap = new Request[1024];
    private int heapSize;
    private double now;
    private int free;
    private int inFlight;
    private int limit;
    private double busyIntegral;
    private double busyAtTick;

    private CarrierModel(int carriers, AdmissionLaw law, Load load, long seed, double seconds, double warmupSeconds) {
        this.carriers = carriers;
        this.law = law;
        this.load = load;
        this.random = new Random(seed);
        this.free = carriers;
        this.limit = law.initialLimit();
        this.warmupMillis = warmupSeconds * 1_000;
        int readings = (int) Math.round(seconds * 1_000 / AdmissionLaw.PERIOD_MILLIS);
        this.run = new Run(carriers, seconds, warmupSeconds, readings);
    }

    /** Runs {@code load} for {@code seconds}; what happens in the first {@code warmupSeconds} is traced only. */
    static Run run(int carriers, AdmissionLaw law, Load load, long seed, double seconds, double warmupSeconds) {
        CarrierModel model = new CarrierModel(carriers, law, load, seed, seconds, warmupSeconds);
        model.simulate(seconds * 1_000);
        return model.run;
    }

    private void simulate(double endMillis) {
        for (int c = 0; c < load.clients(); c++) {
            Request first = new Request(random.nextDouble() * RAMP_MILLIS, Double.POSITIVE_INFINITY);
            first.at = first.arrived;
            push(first);
        }
        double nextArrival = load.isOpen() ? interArrival() : Double.POSITIVE_INFINITY;
        double nextTick = AdmissionLaw.PERIOD_MILLIS;
        while (true) {
            double event = heapSize > 0 ? heap[0].at : Double.POSITIVE_INFINITY;
            double t = Math.min(event, Math.min(nextArrival, nextTick));
            if (t > endMillis) {
                break;
            }
            busyIntegral += (carriers - free) * (t - now);
            now = t;
            if (t == nextTick) {
                tick();
                nextTick += AdmissionLaw.PERIOD_MILLIS;
            } else if (t == nextArrival) {
                arrive(new Request(now, now + load.timeoutMillis()));
                nextArrival += interArrival();
            } else {
                step(pop());
            }
        }
    }

    private double interArrival() {
        return -Math.log(1 - random.nextDouble()) * 1_000 / load.perSecond();
    }

    private void arrive(Request request) {
        request.phases = load.mix().next(now, random).phases(random);
        if (admissionQueue.isEmpty() && inFlight < limit) {
            admit(request);
        } else {
            admissionQueue.add(request);
        }
    }

    private void admit(Request request) {
        inFlight++;
        if (now >= warmupMillis) {
            run.admitted(now - request.arrived);
        }
        request.phase = 0;
        runnable(request);
    }

    /** Admits waiters while the limit allows; those whose client has gone are dropped unrun. */
    private void admitWaiters() {
        while (inFlight < limit && !admissionQueue.isEmpty()) {
            Request next = admissionQueue.poll();
            if (next.deadline < now) {
                run.gone++;
            } else {
                admit(next);
            }
        }
    }

    private void runnable(Request request) {
        if (free > 0) {
            mount(request);
        } else {
            runQueue.add(request);
        }
    }

    private void mount(Request request) {
        free--;
        double cost = 1 + COST_PER_REQUEST_PER_CARRIER * inFlight / carriers;
        request.at = now + request.phases[request.phase] * cost;
        push(request);
    }

    /** The end of a CPU piece or of a wait, or a closed-model client's first request. */
    private void step(Request request) {
        if (request.phase < 0) {
            arrive(request);
            return;
        }
        if (request.phase % 2 == 1) {
            request.phase++;
            runnable(request);
            return;
        }
        free++;
        if (!runQueue.isEmpty()) {
            mount(runQueue.poll());
        }
        request.phase++;
        if (request.phase < request.phases.length) {
            request.at = now + request.phases[request.phase];
            push(request);
            return;
        }
        inFlight--;
        if (now >= warmupMillis) {
            run.answered(now, now <= request.deadline);
        }
        admitWaiters();
        if (!load.isOpen()) {
            arrive(new Request(now, Double.POSITIVE_INFINITY));
        }
    }

    private void tick() {
        while (!admissionQueue.isEmpty() && admissionQueue.peek().deadline < now) {
            admissionQueue.poll();
            run.gone++;
        }
        double cpuLoad = (busyIntegral - busyAtTick) / (carriers * AdmissionLaw.PERIOD_MILLIS);
        busyAtTick = busyIntegral;
        AdmissionLaw.Reading reading = new AdmissionLaw.Reading(carriers, carriers - free, runQueue.size(), inFlight,
                admissionQueue.size(), Math.min(1, cpuLoad));
        int before = limit;
        limit = law.read(reading);
        run.traced(reading, limit);
        if (limit > before) {
            admitWaiters();
        }
    }

    private void push(Request request) {
        if (heapSize == heap.length) {
            heap = java.util.Arrays.copyOf(heap, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent].at <= request.at) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = request;
    }

    private Request pop() {
        Request top = heap[0];
        Request last = heap[--heapSize];
        heap[heapSize] = null;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= heapSize) {
                break;
            }
            if (child + 1 < heapSize && heap[child + 1].at < heap[child].at) {
                child++;
            }
            if (last.at <= heap[child].at) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        if (heapSize > 0) {
            heap[i] = last;
        }
        return top;
    }
}
