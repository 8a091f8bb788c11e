package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.PROPERTIES_PER_LEAF;
import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_BIN;
import static io.github.slingvt.it.e2e.DemoServletsSupport.WORK_JSON;
import static io.github.slingvt.it.e2e.DemoServletsSupport.assertGoneFromRepository;
import static io.github.slingvt.it.e2e.DemoServletsSupport.getBytes;
import static io.github.slingvt.it.e2e.DemoServletsSupport.getOk;
import static io.github.slingvt.it.e2e.DemoServletsSupport.postOk;
import static io.github.slingvt.it.e2e.DemoServletsSupport.json;
import static io.github.slingvt.it.e2e.DemoServletsSupport.scratchChildren;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /bin/vt/work.json} and {@code work.bin} on the shared instance: every work parameter does what it says,
 * checked against the answer, the repository (scratch nodes gone, streamed bytes equal the stored binary) and the
 * clock; plus the "done when" examples of the issue.
 */
@ExtendWith(SharedSlingInstance.class)
class DemoWorkParametersE2EIT {

    private static final int MIB = 1024 * 1024;
    private static final String BINARIES = "/content/vt-demo/binaries/";

    private final SlingInstance sling;

    DemoWorkParametersE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @BeforeAll
    static void seeded(SlingInstance sling) throws InterruptedException {
        final JsonNode status = DemoServletsSupport.awaitSeeded(sling);
        assertThat(status.path("nodes").asLong()).as("status.json %s", status).isEqualTo(10_000);
    }

    @Test
    void doneWhenReadsWithIdleDelayAnswers200OnAVirtualThread() {
        final JsonNode work = getOk(sling, WORK_JSON + "?reads=100&idleDelay=100");

        assertThat(work.at("/thread/virtual").isBoolean()).as("thread.virtual in %s", work).isTrue();
        assertThat(work.at("/thread/virtual").asBoolean()).as("thread.virtual in %s", work).isTrue();
        assertThat(work.at("/reads/nodes").asLong()).as("reads.nodes in %s", work).isEqualTo(100);
        assertThat(work.at("/idleDelay/ms").asDouble()).as("idleDelay.ms in %s", work).isGreaterThanOrEqualTo(100);
    }

    @Test
    void onSegmentTarNoRequestWaitsForADatabase() {
        final JsonNode work = getOk(sling, WORK_JSON + "?reads=100");
        assertThat(work.at("/db/roundTrips").isNumber()).as("db.roundTrips in %s", work).isTrue();
        assertThat(work.at("/db/roundTrips").asLong()).as("db.roundTrips in %s", work).isZero();
    }

    @Test
    void doneWhenNegativeIdleDelayAnswers400NamingIt() {
        final HttpResponse<String> response = sling.get(WORK_JSON + "?idleDelay=-1");

        assertThat(response.statusCode()).as("GET ?idleDelay=-1: %s", response.body()).isEqualTo(400);
        final JsonNode body = json(response);
        assertThat(body.path("error").asText()).as("error in %s", response.body()).isEqualTo("invalid parameter");
        assertThat(body.path("parameter").asText()).as("parameter in %s", response.body()).isEqualTo("idleDelay");
        assertThat(body.path("allowed").asText()).as("allowed in %s", response.body()).isEqualTo("0-60000");
        assertThat(body.path("value").asText()).as("value in %s", response.body()).isEqualTo("-1");
    }

    @ParameterizedTest(name = "reads={0}")
    @ValueSource(ints = {0, 1, 137, 10_050})
    void readsReadsExactlyThatManyLeavesWithAllTheirProperties(int reads) {
        final JsonNode work = getOk(sling, WORK_JSON + "?reads=" + reads);

        assertThat(work.at("/params/reads").asLong()).as("params.reads in %s", work).isEqualTo(reads);
        assertThat(work.at("/reads/nodes").asLong()).as("reads.nodes in %s", work).isEqualTo(reads);
        assertThat(work.at("/reads/missing").asLong()).as("reads.missing in %s", work).isZero();
        assertThat(work.at("/reads/properties").asLong()).as("reads.properties in %s", work)
                .isEqualTo((long) reads * PROPERTIES_PER_LEAF);
    }

    @Test
    void heavyAnonymousWorkIsRefusedAndTheSameWorkLoggedInIsServed() {
        // Issue #11: an anonymous GET (any web page can make a browser send one) asked for 100 downstream calls
        // and a 60 s wait, and got them.
        final long start = System.nanoTime();
        final HttpResponse<String> heavy = sling.get(WORK_JSON + "?fanout=100&idleDelay=60000");
        assertThat(heavy.statusCode()).as("anonymous heavy GET: %s", heavy.body()).isEqualTo(403);
        assertThat(json(heavy).path("parameter").asText()).isEqualTo("idleDelay");
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to refuse (no work started)").isLessThan(30_000);
        for (String query : new String[] {"?reads=1001", "?fileLength=1048577", "?cpuIterations=1001", "?fanout=1"}) {
            final HttpResponse<String> refused = sling.get(WORK_JSON + query);
            assertThat(refused.statusCode()).as("anonymous GET %s: %s", query, refused.body()).isEqualTo(403);
            assertThat(refused.body()).contains("anonymous limit").contains("needs a logged-in user");
        }
        assertThat(sling.get("/bin/vt/work-async.json?fanout=1").statusCode()).as("async servlet too").isEqualTo(403);
        assertThat(sling.get("/bin/vt/slow.json?delay=1001").statusCode()).as("slow endpoint too").isEqualTo(403);

        assertThat(sling.get(WORK_JSON + "?reads=1000&cpuIterations=1000&idleDelay=5").statusCode())
                .as("light work stays anonymous").isEqualTo(200);
        final JsonNode admin = getOk(sling, WORK_JSON + "?fanout=2&fanoutDelay=5&idleDelay=1200&cpuIterations=1001");
        assertThat(admin.at("/fanout/ok").asInt()).as("fanout.ok in %s", admin).isEqualTo(2);
        assertThat(admin.at("/idleDelay/requested").asLong()).isEqualTo(1200);
    }

    @Test
    void aStateChangingPostFromAnotherSitesPageIsRefusedEvenWithTheAdminLogin() {
        // A page on another site can make the browser POST with the developer's stored basic login (CSRF); Sling's
        // Referrer filter (org.apache.sling.security) refuses it before the demo servlet runs.
        final java.util.Map<String, String> write = java.util.Map.of("writes", "1");
        final HttpResponse<String> foreign = sling.postForm(WORK_JSON, write, true,
                CrossSitePostE2EIT.browserFrom("http://evil.example/page"));
        assertThat(foreign.statusCode()).as("cross-site POST: %s", foreign.body()).isEqualTo(403);
        assertThat(sling.postForm("/bin/vt/jobs.json", java.util.Map.of(), true,
                CrossSitePostE2EIT.browserFrom("http://evil.example/page")).statusCode()).as("cross-site job probe")
                .isEqualTo(403);
        assertThat(scratchChildren(sling)).as("nothing was written").isEmpty();
        final HttpResponse<String> own = sling.postForm(WORK_JSON, write, true,
                CrossSitePostE2EIT.browserFrom(sling.baseUrl() + "/content/vt-demo/page.html"));
        assertThat(own.statusCode()).as("same-origin POST: %s", own.body()).isEqualTo(200);
    }

    @Test
    void writesAndTheJobProbeNeedAPostByALoggedInUser() {
        final HttpResponse<String> get = sling.get(WORK_JSON + "?writes=5");
        assertThat(get.statusCode()).as("anonymous GET with writes: %s", get.body()).isEqualTo(405);
        assertThat(get.body()).contains("writes=5 changes state, and GET never does");
        final HttpResponse<String> anonymous = sling.postForm(WORK_JSON, java.util.Map.of("writes", "5"), false);
        assertThat(anonymous.statusCode()).as("anonymous POST with writes: %s", anonymous.body()).isEqualTo(403);
        assertThat(sling.get("/bin/vt/jobs.json").statusCode()).as("GET of the job probe").isEqualTo(405);
        assertThat(sling.postForm("/bin/vt/jobs.json", java.util.Map.of(), false).statusCode())
                .as("anonymous POST of the job probe").isEqualTo(403);
        assertThat(scratchChildren(sling)).as("nothing was written").isEmpty();
    }

    @ParameterizedTest(name = "writes={0}")
    @ValueSource(ints = {1, 25, 1000})
    void writesSavesThatManyNodesAndLeavesNothingInTheRepository(int writes) {
        final JsonNode work = postOk(sling, WORK_JSON + "?writes=" + writes);

        assertThat(work.at("/writes/nodes").asInt()).as("writes.nodes in %s", work).isEqualTo(writes);
        assertThat(work.at("/writes/removed").asBoolean()).as("writes.removed in %s", work).isTrue();
        assertGoneFromRepository(sling, work.at("/writes/path").asText());
        assertThat(scratchChildren(sling)).as("children of the scratch folder after writes=%d", writes).isEmpty();
    }

    @Test
    void scratchCheckSeesANodeLeftThereAndItsRemoval() {
        // Proves that the "no scratch children" checks of these tests can fail: a node left below the scratch path
        // is listed, and gone once deleted.
        final String name = "e2e-leftover-" + UUID.randomUUID();
        final String path = DemoServletsSupport.SCRATCH + "/" + name;
        final HttpResponse<String> created = sling.postForm(path, Map.of("jcr:primaryType", "nt:unstructured"), true);
        assertThat(created.statusCode()).as("POST %s as admin: %s", path, created.body()).isEqualTo(201);
        try {
            assertThat(scratchChildren(sling)).as("children of the scratch folder").contains(name);
        } finally {
            final HttpResponse<String> deleted = sling.postForm(path, Map.of(":operation", "delete"), true);
            assertThat(deleted.statusCode()).as("delete %s: %s", path, deleted.body()).isEqualTo(200);
        }
        assertGoneFromRepository(sling, path);
        assertThat(scratchChildren(sling)).as("children of the scratch folder").doesNotContain(name);
    }

    @Test
    void noWritesTouchNoScratchNode() {
        final JsonNode work = getOk(sling, WORK_JSON + "?writes=0&reads=1");

        assertThat(work.at("/writes/nodes").asInt()).as("writes.nodes in %s", work).isZero();
        assertThat(work.at("/writes/path").isNull()).as("writes.path in %s", work).isTrue();
    }

    @ParameterizedTest(name = "fileLength={0}")
    @ValueSource(ints = {0, 1, 1000, 1024, 1025, 100 * 1024 + 1, 3 * MIB + 7, 10 * MIB, 10 * MIB + 65_537})
    void workBinStreamsExactlyFileLengthBytesOfTheStoredBinary(int fileLength) {
        final HttpResponse<byte[]> response = getBytes(sling, WORK_BIN + "?fileLength=" + fileLength);

        assertThat(response.statusCode()).as("GET work.bin?fileLength=%d", fileLength).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).as("Content-Type")
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/octet-stream"));
        assertThat(response.headers().firstValueAsLong("Content-Length")).as("Content-Length")
                .hasValue(fileLength);
        assertThat(response.headers().firstValue("X-VT-Thread-Virtual")).as("X-VT-Thread-Virtual").isPresent();
        final byte[] body = response.body();
        assertThat(body.length).as("bytes streamed for fileLength=%d", fileLength).isEqualTo(fileLength);
        if (fileLength == 0) {
            return;
        }
        // The bytes are those of the smallest stored binary that holds them; beyond 10 MiB the 10 MiB one again.
        final String binary = fileLength <= 1024 ? "1k" : fileLength <= 100 * 1024 ? "100k"
                : fileLength <= MIB ? "1m" : "10m";
        final byte[] stored = storedBinary(binary);
        final int head = Math.min(fileLength, stored.length);
        assertThat(Arrays.equals(body, 0, head, stored, 0, head))
                .as("first %d bytes of work.bin?fileLength=%d equal %s%s", head, fileLength, BINARIES, binary)
                .isTrue();
        if (fileLength > stored.length) {
            final int rest = fileLength - stored.length;
            assertThat(Arrays.equals(body, stored.length, fileLength, stored, 0, rest))
                    .as("bytes beyond %d of work.bin?fileLength=%d repeat %s%s from its start", stored.length,
                            fileLength, BINARIES, binary)
                    .isTrue();
        }
    }

    @Test
    void workJsonReportsTheBytesReadAndTheBinaryUsed() {
        final JsonNode work = getOk(sling, WORK_JSON + "?fileLength=" + (10 * MIB + 1));

        assertThat(work.at("/fileLength/bytes").asLong()).as("fileLength.bytes in %s", work).isEqualTo(10 * MIB + 1);
        assertThat(work.at("/fileLength/binary").asText()).as("fileLength.binary in %s", work)
                .isEqualTo(BINARIES + "10m");
    }

    @Test
    void idleDelayWaitsAtLeastTheRequestedTime() {
        final int delay = 300;
        final long start = System.nanoTime();
        final JsonNode work = getOk(sling, WORK_JSON + "?idleDelay=" + delay);
        final double elapsed = (System.nanoTime() - start) / 1e6;

        assertThat(elapsed).as("round trip of idleDelay=%d (ms)", delay).isGreaterThanOrEqualTo(delay);
        assertThat(work.at("/idleDelay/requested").asLong()).as("idleDelay.requested in %s", work).isEqualTo(delay);
        assertThat(work.at("/idleDelay/ms").asDouble()).as("idleDelay.ms in %s", work).isGreaterThanOrEqualTo(delay);
        assertThat(work.at("/timings/total").asDouble()).as("timings.total in %s", work)
                .isGreaterThanOrEqualTo(delay);
    }

    @ParameterizedTest(name = "cpuIterations={0}")
    @ValueSource(ints = {0, 1, 5000})
    void cpuIterationsRunsThatManyRoundsWithTheExpectedDigest(int iterations) {
        final JsonNode work = getOk(sling, WORK_JSON + "?cpuIterations=" + iterations);

        assertThat(work.at("/cpuIterations/iterations").asInt()).as("cpuIterations.iterations in %s", work)
                .isEqualTo(iterations);
        if (iterations == 0) {
            assertThat(work.at("/cpuIterations/digest").isNull()).as("digest without rounds in %s", work).isTrue();
        } else {
            assertThat(work.at("/cpuIterations/digest").asText()).as("cpuIterations.digest in %s", work)
                    .isEqualTo(DemoServletsSupport.expectedDigest(iterations));
        }
    }

    @Test
    void fanoutMakesThatManyDownstreamCallsAllSucceeding() {
        final long start = System.nanoTime();
        final JsonNode work = getOk(sling, WORK_JSON + "?fanout=8&fanoutDelay=200");
        final double elapsed = (System.nanoTime() - start) / 1e6;

        assertThat(work.at("/fanout/calls").asInt()).as("fanout.calls in %s", work).isEqualTo(8);
        assertThat(work.at("/fanout/ok").asInt()).as("fanout.ok in %s", work).isEqualTo(8);
        assertThat(work.at("/fanout/failed").asInt()).as("fanout.failed in %s", work).isZero();
        assertThat(work.at("/fanout/delay").asLong()).as("fanout.delay in %s", work).isEqualTo(200);
        assertThat(work.at("/fanout/firstError").isNull()).as("fanout.firstError in %s", work).isTrue();
        // The calls run at once: far less than 8 x 200 ms, but each waited its delay.
        assertThat(work.at("/timings/fanout").asDouble()).as("timings.fanout in %s", work)
                .isGreaterThanOrEqualTo(200).isLessThan(1600);
        assertThat(elapsed).as("round trip (ms)").isGreaterThanOrEqualTo(200);
    }

    @Test
    void allParametersTogetherAreEachReportedAndEchoed() {
        final JsonNode work = postOk(sling, WORK_JSON
                + "?reads=50&writes=5&fileLength=2000&idleDelay=30&cpuIterations=100&fanout=2&fanoutDelay=10");

        assertThat(work.path("mode").asText()).as("mode in %s", work).isEqualTo("sync");
        assertThat(work.path("params").toString()).as("params").isEqualTo("{\"reads\":50,\"writes\":5,"
                + "\"fileLength\":2000,\"idleDelay\":30,\"cpuIterations\":100,\"fanout\":2,\"fanoutDelay\":10}");
        assertThat(work.at("/reads/nodes").asLong()).isEqualTo(50);
        assertThat(work.at("/writes/nodes").asInt()).isEqualTo(5);
        assertThat(work.at("/fileLength/bytes").asLong()).isEqualTo(2000);
        assertThat(work.at("/fileLength/binary").asText()).isEqualTo(BINARIES + "100k");
        assertThat(work.at("/idleDelay/ms").asDouble()).isGreaterThanOrEqualTo(30);
        assertThat(work.at("/cpuIterations/iterations").asInt()).isEqualTo(100);
        assertThat(work.at("/fanout/ok").asInt()).isEqualTo(2);
        assertThat(work.path("timings").fieldNames()).toIterable().as("timings in %s", work)
                .containsExactly("reads", "writes", "fileLength", "idleDelay", "cpuIterations", "fanout", "total");
        assertGoneFromRepository(sling, work.at("/writes/path").asText());
    }

    private byte[] storedBinary(String name) {
        final HttpResponse<byte[]> stored = getBytes(sling, BINARIES + name);
        assertThat(stored.statusCode()).as("GET %s%s (the stored binary)", BINARIES, name).isEqualTo(200);
        return stored.body();
    }
}
