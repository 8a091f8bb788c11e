package io.github.slingvt.http.internal;

/**
 * Tells while a request waits for admission whether its client has gone: a request whose client closed the
 * connection is dropped from the queue instead of being started for nobody. One watch per waiting request, asked by
 * the gate's sweep ({@link AdmissionGate}) rather than registered with Jetty's selector, so that watching costs
 * nothing per request that is admitted within the watch delay and no selector wake-up for any.
 */
interface ClientWatch {

    /** A watch that never reports (the request's connection cannot be watched). */
    ClientWatch NONE = new ClientWatch() {
        @Override
        public boolean gone() {
            return false;
        }

        @Override
        public void release() {
        }
    };

    /**
     * Whether the client has gone, found without blocking; always false once released. Called by one thread at a
     * time (the sweep), possibly at the same time as {@link #release()}.
     */
    boolean gone();

    /**
     * Ends the watch before the request runs or is answered: once this returns no {@link #gone()} touches the
     * connection any more, so that Jetty alone reads it again.
     */
    void release();
}
