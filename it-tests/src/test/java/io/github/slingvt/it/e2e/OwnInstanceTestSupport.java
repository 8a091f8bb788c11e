package io.github.slingvt.it.e2e;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;

/**
 * For end-to-end tests that start, restart or kill an instance of their own (never the shared one): the instance in
 * {@link #sling}, stopped by its PID after each test (while the next test starts, {@link BackgroundStops}), and a
 * restart on the same home, which waits for the stop.
 */
abstract class OwnInstanceTestSupport {

    /** The instance of this test; replaced by {@link #restart(SlingInstanceBuilder)}. */
    protected SlingInstance sling;

    @AfterEach
    void stopOwnInstance() {
        if (sling != null) {
            sling.close();
        }
    }

    /** Starts {@code builder} and waits until the demo content is seeded. */
    protected SlingInstance startSeeded(SlingInstanceBuilder builder) throws InterruptedException {
        sling = builder.start();
        DemoServletsSupport.awaitSeeded(sling);
        return sling;
    }

    /**
     * Stops the instance (if it still runs) and starts {@code builder} on its home; answers the error.log line count
     * at the restart, so that a test can read what the new start logged.
     */
    protected int restart(SlingInstanceBuilder builder) {
        Path home = sling.home();
        sling.stop();
        int mark = sling.errorLogLines().size();
        sling = builder.home(home).start();
        return mark;
    }
}
