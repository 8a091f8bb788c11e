package io.github.slingvt.http.internal;

/**
 * Tells while a request waits for admission whether its client has gone: a request whose client closed the
 * connection is dropped from the queue instead of being started for nobody. One watch per waiting request.
 */
interface ClientWatch {

    /** A watch that never reports (the request's connection cannot be watched). */
    ClientWatch NONE = new ClientWatch() {
        @Override
        public void watch(Runnable onGone) {
        }

        @Override
        public void release() {
        }
    };

    /** Starts watching; {@code onGone} runs at most once, on any thread, when the client has closed. */
    void watch(Runnable onGone);

    /** Stops watching before the request runs or is answered; after this {@code onGone} is not called. */
    void release();
}
