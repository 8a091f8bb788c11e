package io.github.slingvt.demo.internal.content;

import io.github.slingvt.demo.internal.http.Json;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** What the seeder is doing, written by its thread and read by the status servlet. */
public final class SeedProgress {

    public enum State {
        /** Seeding is switched off by configuration. */
        DISABLED,
        /**
         * The configuration was refused: nothing is written, so that an unreadable size never grows or prunes the
         * tree to the defaults.
         */
        REFUSED,
        /** Not started yet. */
        PENDING,
        BINARIES,
        TREE,
        COMPLETE,
        /** The last attempt failed; the seeder tries again after a pause. */
        RETRYING,
        /** The component stopped before seeding was complete; the next start resumes. */
        STOPPED
    }

    private final AtomicLong created = new AtomicLong();
    private final AtomicLong present = new AtomicLong();
    private final AtomicLong removed = new AtomicLong();
    private volatile State state;
    private volatile String lastError;
    private volatile long startNanos;
    private volatile long elapsedNanos = -1;

    public SeedProgress(State initial) {
        this.state = initial;
    }

    State state() {
        return state;
    }

    void state(State next) {
        if (next == State.BINARIES && startNanos == 0) {
            startNanos = System.nanoTime();
        }
        state = next;
    }

    /** A new attempt recounts what it finds in the repository. */
    void restart() {
        created.set(0);
        present.set(0);
        removed.set(0);
    }

    void created(long nodes) {
        created.addAndGet(nodes);
    }

    void present(long nodes) {
        present.addAndGet(nodes);
    }

    void removed(long nodes) {
        removed.addAndGet(nodes);
    }

    long created() {
        return created.get();
    }

    long found() {
        return present.get();
    }

    void complete() {
        elapsedNanos = System.nanoTime() - startNanos;
        lastError = null;
        state = State.COMPLETE;
    }

    void failed(Exception e) {
        lastError = e.toString();
        state = State.RETRYING;
    }

    Map<String, Object> toJson() {
        return Json.object(
                "state", state.name(),
                "nodesCreated", created.get(),
                "nodesFound", present.get(),
                "nodesRemoved", removed.get(),
                "lastError", lastError,
                "seedingMs", seedingMillis());
    }

    /** @return how long the completed seeding took, or null while it is not complete */
    Double seedingMillis() {
        return elapsedNanos < 0 ? null : Json.millis(elapsedNanos);
    }
}
