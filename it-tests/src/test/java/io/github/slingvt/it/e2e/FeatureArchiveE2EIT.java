package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The release's feature archive ({@code ./sling-vt release} ships it as {@code sling-vt-starter-VERSION.far}) starts on
 * its own, as the release README tells a user to start it: the Sling Feature Launcher with the archive, no Maven
 * repository but the cache the archive unpacks into, an empty user home (no {@code ~/.m2}) and no network. The
 * instance serves the demo page on a virtual thread, and stops by its PID.
 */
class FeatureArchiveE2EIT extends OwnInstanceTestSupport {

    /** The launcher's account of where the artifacts of the launch came from. */
    private static final Pattern ARTIFACT_SOURCES = Pattern.compile(
            "Using (\\d+) local artifacts, (\\d+) cached artifacts, and (\\d+) downloaded artifacts");
    /** The starter feature has about 150 artifacts; far fewer would mean the archive lost some. */
    private static final int MIN_ARTIFACTS = 100;

    @Test
    void archiveStartsWithoutRepositoryOrNetworkAndServesThePageOnAVirtualThread()
            throws IOException, InterruptedException {
        startSeeded(SlingInstance.builder("far").featureArchive(archive()).smallDemoTree().functionalChecksOnly());

        final String launcherOutput = Files.readString(sling.home().resolve("logs/stdout.log"));
        assertThat(launcherOutput).as("the launcher's repositories")
                .contains("Artifact Repositories: [file://" + sling.home().resolve("cache") + "]");
        final Matcher sources = ARTIFACT_SOURCES.matcher(launcherOutput);
        assertThat(sources.find()).as("the launcher's artifact count in %s", sling.home()).isTrue();
        assertThat(Integer.parseInt(sources.group(1))).as("artifacts from the archive").isGreaterThan(MIN_ARTIFACTS);
        assertThat(sources.group(3)).as("artifacts downloaded").isEqualTo("0");
        try (Stream<Path> userHome = Files.list(sling.home().resolve("empty-user-home"))) {
            assertThat(userHome).as("files the launch wrote into the user's home (~/.m2)").isEmpty();
        }

        final HttpResponse<String> page = sling.get(StarterFeatureE2EIT.PAGE + "?reads=3");
        assertThat(page.statusCode()).as("GET %s: %s", StarterFeatureE2EIT.PAGE, page.body()).isEqualTo(200);
        assertThat(StarterFeatureE2EIT.fields(page.body())).containsEntry("reads", "3")
                .containsEntry("thread-kind", "virtual");

        final long pid = sling.pid();
        sling.stop();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("PID %d alive", pid).isFalse();
    }

    /** The one feature archive that the build of feature-model attached. */
    private static Path archive() throws IOException {
        final Path featureDir = Path.of(System.getProperty(SlingInstanceBuilder.FEATURE_DIR_PROPERTY,
                "../feature-model/target")).toAbsolutePath().normalize();
        try (Stream<Path> files = Files.list(featureDir)) {
            final List<Path> archives = files.filter(f -> f.getFileName().toString().endsWith("-sling-vt-starter.far"))
                    .toList();
            assertThat(archives).as("feature archives in %s", featureDir).hasSize(1);
            return archives.get(0);
        }
    }
}
