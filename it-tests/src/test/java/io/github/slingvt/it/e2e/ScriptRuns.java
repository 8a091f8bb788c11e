package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** For tests that start an instance with {@code ./sling-vt run} itself. */
final class ScriptRuns {

    private ScriptRuns() {
    }

    /**
     * The lines {@code ./sling-vt run} prints once Sling answers ("Sling is up" or what is not ready), read from the
     * file its output goes to; fails if the script ends first or nothing comes within 240 s.
     */
    static String awaitAnnouncement(Process run, Path output) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (text.contains("Ctrl-C to stop")) {
                return text;
            }
            assertThat(run.isAlive()).as("./sling-vt run is running; output so far: %s", text).isTrue();
            Thread.sleep(250);
        }
        throw new AssertionError("./sling-vt run announced nothing within 240 s: "
                + Files.readString(output, StandardCharsets.UTF_8));
    }
}
