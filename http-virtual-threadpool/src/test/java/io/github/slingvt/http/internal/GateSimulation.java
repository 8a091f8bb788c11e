package io.github.slingvt.http.internal;

import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A discrete-event model of clients in front of the real {@link AdmissionGate} (its queue discipline, displacement and
 * wait timeouts, on a simulated clock) and of a server behind it that answers {@code perSecond} requests a second in
 * the order it admitted them (exponential service times). Clients are open (Poisson arrivals; over at most
 * {@code connections} connections, as a load generator's: a send waits for a free one) or closed (each of
 * {@code clients} sends its next request when its answer or refusal comes). A client gives up after its patience and,
 * as an HTTP/1 client that closes its connection, the gate does not see it leave: its request stays queued and, if
 * admitted, runs for nobody. Deterministic for a seed.
 */
final class GateSimulation {

    /**
     * Who sends: open at {@code perSecond} over {@code connections} (0: as many as needed), or {@code closed} ones,
     * each sending its first request at a random moment of the first {@code rampMillis}.
     */
    record Clients(double perSecond, int connections, int closed, double patienceMillis, double rampMillis) {

        static Clients open(double perSecond, int connections, double patienceMillis) {
            return new Clients(perSecond, connections, 0, patienceMillis, 0);
        }

        static Clients closed(int clients, double patienceMillis) {
            return new Clients(0, 0, clients, patienceMillis, 100);
        }

        /** Closed clients that join over {@code rampMillis}, as users arriving one by one. */
        Clients joiningOver(double millis) {
            return new Clients(perSecond, connections, closed, patienceMillis, millis);
        }
    }

    /**
     * The gate's limits ({@code maxRunning} at once, {@code maxQueued}, waits up to {@code timeoutMillis}). With
     * {@code swingTo} above 0 the cap moves as {@code auto}'s does at a CPU-bound overload: every second it rises to
     * {@code swingTo} (room seen at a reading) and half a second later falls back (the backlog cut); the server's
     * rate stays the same, as the carriers' does.
     */
    record Server(int maxRunning, double perSecond, int maxQueued, long timeoutMillis, int swingTo) {

        Server(int maxRunning, double perSecond, int maxQueued, long timeoutMillis) {
            this(maxRunning, perSecond, maxQueued, timeoutMillis, 0);
        }

        Server swinging(int to) {
            return new Server(maxRunning, perSecond, maxQueued, timeoutMillis, to);
        }
    }

    /** What the clients got after the warm-up, per outcome, and how the queue was served. */
    static final class Result {
        double seconds;
        /** Answered before the client gave up. */
        long inTime;
        /** Run and answered after the client had gone: work for nobody. */
        long forNobody;
        /** Refused (503) while the client still waited; refused after it had gone. */
        long refusedWaiting;
        long refusedGone;
        /** Clients that gave up before their answer. */
        long gaveUp;
        /** The longest admission wait of a request answered in time, ms. */
        double longestWaitMillis;
        /** Share of the samples (every 100 ms) at which the gate served the newest first. */
        double newestFirstShare;

        double inTimePerSecond() {
            return inTime / seconds;
        }

        /** Share of the server's work that answered nobody. */
        double wastedShare() {
            return (double) forNobody / Math.max(1, inTime + forNobody);
        }

        @Override
        public String toString() {
            return String.format("in time %.0f/s, for nobody %.1f %%, refused %d waiting + %d gone, gave up %d, "
                    + "longest wait %.0f ms, newest first %.0f %%", inTimePerSecond(), 100 * wastedShare(),
                    refusedWaiting, refusedGone, gaveUp, longestWaitMillis, 100 * newestFirstShare);
        }
    }

    private static final class Request {
        final double sent;
        final double deadline;
        Slot slot;
        double admitted;
        boolean ended;
        boolean gone;

        Request(double sent, double patience) {
            this.sent = sent;
            this.deadline = sent + patience;
        }
    }

    private record Event(double at, long seq, Runnable action) {
    }

    /** A closed-model client sends again this long after a refusal (a load generator that does not wait out 503s). */
    private static final double RETRY_MILLIS = 100;
    private static final double SAMPLE_MILLIS = 100;
    private static final double SWING_MILLIS = 1_000;

    private final Clients clients;
    private final Server server;
    private final Random random;
    private final double warmup;
    private final AtomicLong clock = new AtomicLong();
    private final AdmissionGate gate;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Double.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final ArrayDeque<Request> service = new ArrayDeque<>();
    private final Result result = new Result();
    private long seq;
    private double now;
    private int busyConnections;
    private long backlog;
    private boolean serving;
    private long samples;
    private long newestFirstSamples;

    private GateSimulation(Clients clients, Server server, long seed, double warmupSeconds) {
        this.clients = clients;
        this.server = server;
        this.random = new Random(seed);
        this.warmup = warmupSeconds * 1_000;
        this.gate = new AdmissionGate(timer(), clock::get);
        gate.setLimits(server.maxRunning(), server.maxQueued(), server.timeoutMillis(), this);
    }

    /** Runs for {@code seconds}; only what happens after {@code warmupSeconds} is counted. */
    static Result run(Clients clients, Server server, long seed, double seconds, double warmupSeconds) {
        GateSimulation sim = new GateSimulation(clients, server, seed, warmupSeconds);
        sim.simulate(seconds * 1_000);
        sim.result.seconds = seconds - warmupSeconds;
        sim.result.newestFirstShare = (double) sim.newestFirstSamples / Math.max(1, sim.samples);
        return sim.result;
    }

    private void simulate(double end) {
        if (clients.perSecond() > 0) {
            at(exponential(1_000 / clients.perSecond()), this::arrival);
        }
        for (int c = 0; c < clients.closed(); c++) {
            at(random.nextDouble() * clients.rampMillis(), this::send);
        }
        at(SAMPLE_MILLIS, this::sample);
        if (server.swingTo() > 0) {
            at(SWING_MILLIS, this::swing);
        }
        while (!events.isEmpty() && events.peek().at <= end) {
            Event event = events.poll();
            now = event.at;
            clock.set((long) (now * 1_000_000));
            event.action.run();
        }
    }

    private void arrival() {
        if (clients.connections() == 0 || busyConnections < clients.connections()) {
            send();
        } else {
            backlog++;
        }
        at(now + exponential(1_000 / clients.perSecond()), this::arrival);
    }

    private void send() {
        busyConnections++;
        Request request = new Request(now, clients.patienceMillis());
        at(request.deadline, () -> patienceEnds(request));
        gate.enter(new Outcomes(slot -> admitted(request, slot), () -> refused(request), failure -> { }),
                Outcomes.NO_FAILURES);
    }

    private void admitted(Request request, Slot slot) {
        request.slot = slot;
        request.admitted = now;
        service.add(request);
        if (!serving) {
            serve();
        }
    }

    private void serve() {
        serving = !service.isEmpty();
        if (serving) {
            Request next = service.peek();
            at(now + exponential(1_000 / server.perSecond()), () -> answered(next));
        }
    }

    private void answered(Request request) {
        service.poll();
        boolean counted = now >= warmup;
        if (request.gone) {
            result.forNobody += counted ? 1 : 0;
        } else {
            request.ended = true;
            if (counted) {
                result.inTime++;
                result.longestWaitMillis = Math.max(result.longestWaitMillis, request.admitted - request.sent);
            }
            connectionFree(0);
        }
        request.slot.giveBack();
        serve();
    }

    private void refused(Request request) {
        boolean counted = now >= warmup;
        if (request.gone) {
            result.refusedGone += counted ? 1 : 0;
            return;
        }
        request.ended = true;
        result.refusedWaiting += counted ? 1 : 0;
        connectionFree(RETRY_MILLIS);
    }

    /** The client gives up: it closes its connection, unseen by the gate, and opens a new one for what comes next. */
    private void patienceEnds(Request request) {
        if (request.ended) {
            return;
        }
        request.gone = true;
        result.gaveUp += now >= warmup ? 1 : 0;
        connectionFree(0);
    }

    private void connectionFree(double after) {
        busyConnections--;
        if (clients.closed() > 0) {
            at(now + after, this::send);
        } else if (backlog > 0) {
            backlog--;
            at(now + after, this::send);
        }
    }

    private void swing() {
        gate.moveCap(this, server.swingTo());
        at(now + SWING_MILLIS / 2, () -> gate.moveCap(this, server.maxRunning()));
        at(now + SWING_MILLIS, this::swing);
    }

    private void sample() {
        if (now >= warmup) {
            samples++;
            newestFirstSamples += gate.newestFirst() ? 1 : 0;
        }
        at(now + SAMPLE_MILLIS, this::sample);
    }

    private double exponential(double meanMillis) {
        return -Math.log(1 - random.nextDouble()) * meanMillis;
    }

    private void at(double time, Runnable action) {
        events.add(new Event(time, seq++, action));
    }

    /** The gate's timer on the simulated clock: a task runs as an event when its delay has passed. */
    private ScheduledExecutorService timer() {
        return (ScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ScheduledExecutorService.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isShutdown" -> false;
                    case "schedule" -> {
                        boolean[] cancelled = {false};
                        Runnable task = (Runnable) args[0];
                        double delay = ((TimeUnit) args[2]).toNanos((Long) args[1]) / 1e6;
                        at(now + delay, () -> {
                            if (!cancelled[0]) {
                                task.run();
                            }
                        });
                        yield Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ScheduledFuture.class},
                                (future, call, callArgs) -> {
                                    if (!call.getName().equals("cancel")) {
                                        throw new UnsupportedOperationException(call.getName());
                                    }
                                    cancelled[0] = true;
                                    return true;
                                });
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
