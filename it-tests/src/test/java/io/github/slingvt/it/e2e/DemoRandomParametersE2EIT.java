package io.github.slingvt.it.e2e;

import static io.github.slingvt.it.e2e.DemoServletsSupport.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 1,000 random parameter combinations, valid and invalid (negative, over the cap, huge, not a number, empty, mixed),
 * against {@code work.json}, {@code work.bin} and {@code work-async.json} with 16 clients at once: never a 5xx; a
 * valid combination answers 200 having done exactly its work, an invalid one 400 naming the first bad parameter in
 * step order with its range. Valid work stays small. The seed is fixed (override: {@code -Dslingvt.e2e.seed=N}) and
 * printed in every failure message.
 */
@ExtendWith(SharedSlingInstance.class)
class DemoRandomParametersE2EIT {

    private static final long SEED = Long.getLong("slingvt.e2e.seed", 0x5D1E_2025L);
    private static final int CASES = 1000;
    private static final int CLIENTS = 16;
    private static final long OVERALL_TIMEOUT_SECONDS = 90;
    private static final int MAX_REPORTED = 15;
    private static final String[] NOT_NUMBERS = {"abc", "1.5", "1e3", "0x1F", "1,000", "five", "NaN", "Infinity",
        "--1", "+-1", "1 2", "12abc", "abc12", "10ms", "3kb", "<b>&\"'\\", "%", "null", "true", "0.0", "٣", "½", "-"};

    /** Parameter, cap of the servlet, cap of the work this test asks for. In step order. */
    private record Param(String name, long max, int testMax) {
    }

    private static final List<Param> PARAMS = List.of(
            new Param("reads", 100_000, 200),
            new Param("writes", 1_000, 5),
            new Param("fileLength", 104_857_600, 64 * 1024),
            new Param("idleDelay", 60_000, 20),
            new Param("cpuIterations", 1_000_000, 500),
            new Param("fanout", 100, 3),
            new Param("fanoutDelay", 60_000, 20));

    /** One request: raw values (absent parameters are missing), the numbers of the valid ones, the first bad one. */
    private record Case(int index, String endpoint, Map<String, String> raw, Map<String, Long> values,
            Param firstInvalid) {

        String url() {
            return endpoint + raw.entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&", "?", ""));
        }

        long value(String name) {
            return values.getOrDefault(name, 0L);
        }
    }

    private final SlingInstance sling;

    DemoRandomParametersE2EIT(SlingInstance sling) {
        this.sling = sling;
    }

    @BeforeAll
    static void seeded(SlingInstance sling) throws InterruptedException {
        DemoServletsSupport.awaitSeeded(sling);
    }

    @Test
    void randomCombinationsNeverAnswer5xxAndAnswer200Or400AsTheParametersDeserve()
            throws InterruptedException, ExecutionException {
        final Random random = new Random(SEED);
        final List<Case> cases = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            cases.add(randomCase(i, random));
        }
        final int logLinesBefore = sling.errorLogLines().size();
        final long start = System.nanoTime();
        final List<String> problems = new ArrayList<>();
        final ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            final List<Future<String>> outcomes = new ArrayList<>();
            for (Case c : cases) {
                outcomes.add(clients.submit(() -> check(c)));
            }
            final long deadline = start + TimeUnit.SECONDS.toNanos(OVERALL_TIMEOUT_SECONDS);
            for (Future<String> outcome : outcomes) {
                final String problem;
                try {
                    problem = outcome.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("seed " + SEED + ": " + CASES + " cases not done within "
                            + OVERALL_TIMEOUT_SECONDS + " s", e);
                }
                if (problem != null) {
                    problems.add(problem);
                }
            }
        } finally {
            clients.shutdownNow();
            assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).as("clients stopped").isTrue();
        }
        final long valid = cases.stream().filter(c -> c.firstInvalid() == null).count();
        System.out.printf("seed %d: %d random cases (%d valid, %d invalid) with %d clients in %d ms%n", SEED, CASES,
                valid, CASES - valid, CLIENTS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));

        assertThat(problems)
                .as("seed %d (rerun with -Dslingvt.e2e.seed=%d): %d of %d cases went wrong, first %d:%n%s", SEED,
                        SEED, problems.size(), CASES, MAX_REPORTED,
                        String.join("\n", problems.subList(0, Math.min(MAX_REPORTED, problems.size()))))
                .isEmpty();
        assertThat(valid).as("seed %d: valid cases", SEED).isBetween(300L, 700L);
        assertThat(DemoServletsSupport.scratchChildren(sling)).as("seed %d: scratch children after the run", SEED)
                .isEmpty();
        final List<String> log = sling.errorLogLines();
        final List<String> logged = log.subList(Math.min(logLinesBefore, log.size()), log.size());
        assertThat(ErrorLogAllowlist.load().unexpectedErrors(logged))
                .as("seed %d: unexpected *ERROR* entries in %s/logs/error.log during the run", SEED, sling.home())
                .isEmpty();
        assertThat(logged).as("seed %d: warnings of the demo servlets during the run", SEED)
                .noneMatch(line -> line.contains("*WARN*") && line.contains("io.github.slingvt.demo"));
    }

    private static Case randomCase(int index, Random random) {
        final double kind = random.nextDouble();
        final String endpoint = kind < 0.6 ? DemoServletsSupport.WORK_JSON
                : kind < 0.8 ? DemoServletsSupport.WORK_BIN : DemoServletsSupport.WORK_ASYNC_JSON;
        final boolean valid = random.nextBoolean();
        final List<Param> bad = new ArrayList<>();
        if (!valid) {
            final List<Param> shuffled = new ArrayList<>(PARAMS);
            Collections.shuffle(shuffled, random);
            bad.addAll(shuffled.subList(0, 1 + random.nextInt(3)));
        }
        final Map<String, String> raw = new LinkedHashMap<>();
        final Map<String, Long> values = new LinkedHashMap<>();
        Param firstInvalid = null;
        for (Param p : PARAMS) {
            if (bad.contains(p)) {
                raw.put(p.name(), invalidValue(p, random));
                firstInvalid = firstInvalid == null ? p : firstInvalid;
            } else if (random.nextInt(10) < 6) {
                final long value = random.nextInt(p.testMax() + 1);
                values.put(p.name(), value);
                raw.put(p.name(), (random.nextInt(20) == 0 ? "00" : "") + value);
            }
        }
        // Parameters in a random order in the query: the servlet must still report the first one in step order.
        final List<Map.Entry<String, String>> entries = new ArrayList<>(raw.entrySet());
        Collections.shuffle(entries, random);
        final Map<String, String> shuffledRaw = new LinkedHashMap<>();
        entries.forEach(e -> shuffledRaw.put(e.getKey(), e.getValue()));
        return new Case(index, endpoint, shuffledRaw, values, firstInvalid);
    }

    private static String invalidValue(Param p, Random random) {
        return switch (random.nextInt(7)) {
            case 0 -> "-" + (1 + random.nextInt(1_000_000));
            case 1 -> String.valueOf(p.max() + 1 + random.nextInt(3) * (long) random.nextInt(1_000_000));
            case 2 -> "9".repeat(19 + random.nextInt(30));
            case 3 -> random.nextBoolean() ? "" : " ";
            case 4 -> (random.nextBoolean() ? "-" : "") + "1" + "0".repeat(70 + random.nextInt(200));
            case 5 -> random.nextInt(p.testMax() + 1) + NOT_NUMBERS[random.nextInt(NOT_NUMBERS.length)];
            default -> NOT_NUMBERS[random.nextInt(NOT_NUMBERS.length)];
        };
    }

    /** @return null when the answer is right, else what is wrong with it */
    private String check(Case c) {
        final HttpResponse<byte[]> response = DemoServletsSupport.getBytes(sling, c.url());
        final int status = response.statusCode();
        final String where = "case " + c.index() + " GET " + c.url() + " -> HTTP " + status + ": ";
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        // Valid parameters with writes: GET never changes state, so 405 (parameters are checked first: 400).
        final boolean writes = c.firstInvalid() == null && c.value("writes") > 0;
        final int expected = c.firstInvalid() != null ? 400 : writes ? 405 : 200;
        if (status >= 500 || status != expected) {
            return where + abbreviate(text);
        }
        if (c.firstInvalid() != null) {
            return checkBadRequest(c, where, text);
        }
        if (writes) {
            return text.contains("changes state, and GET never does") ? null : where + abbreviate(text);
        }
        if (c.endpoint().equals(DemoServletsSupport.WORK_BIN)) {
            final String virtual = response.headers().firstValue("X-VT-Thread-Virtual").orElse(null);
            return response.body().length == c.value("fileLength") && virtual != null ? null
                    : where + response.body().length + " bytes, X-VT-Thread-Virtual " + virtual;
        }
        final JsonNode work;
        try {
            work = JSON.readTree(text);
        } catch (IOException e) {
            return where + "not JSON: " + abbreviate(text);
        }
        final List<String> wrong = new ArrayList<>();
        for (Param p : PARAMS) {
            if (work.path("params").path(p.name()).asLong(-1) != c.value(p.name())) {
                wrong.add("params." + p.name());
            }
        }
        expect(wrong, work, "/reads/nodes", c.value("reads"));
        expect(wrong, work, "/reads/missing", 0);
        expect(wrong, work, "/writes/nodes", c.value("writes"));
        expect(wrong, work, "/fileLength/bytes", c.value("fileLength"));
        expect(wrong, work, "/cpuIterations/iterations", c.value("cpuIterations"));
        expect(wrong, work, "/fanout/calls", c.value("fanout"));
        expect(wrong, work, "/fanout/ok", c.value("fanout"));
        if (work.at("/writes/removed").asBoolean() != c.value("writes") > 0) {
            wrong.add("writes.removed");
        }
        if (work.at("/idleDelay/ms").asDouble() < c.value("idleDelay")) {
            wrong.add("idleDelay.ms");
        }
        if (c.endpoint().equals(DemoServletsSupport.WORK_ASYNC_JSON) && !work.path("async").asBoolean()) {
            wrong.add("async");
        }
        return wrong.isEmpty() ? null : where + "wrong " + wrong + " in " + text;
    }

    private static String checkBadRequest(Case c, String where, String text) {
        final JsonNode body;
        try {
            body = JSON.readTree(text);
        } catch (IOException e) {
            return where + "not JSON: " + abbreviate(text);
        }
        final Param p = c.firstInvalid();
        final String raw = c.raw().get(p.name());
        final String echoed = raw.length() <= 64 ? raw : raw.substring(0, 64) + "...";
        final boolean ascii = raw.chars().allMatch(ch -> ch < 128);
        if (!"invalid parameter".equals(body.path("error").asText())
                || !p.name().equals(body.path("parameter").asText())
                || !("0-" + p.max()).equals(body.path("allowed").asText())
                || ascii && !echoed.equals(body.path("value").asText())) {
            return where + "expected parameter " + p.name() + " (0-" + p.max() + ", value '" + echoed + "') in "
                    + abbreviate(text);
        }
        return null;
    }

    private static void expect(List<String> wrong, JsonNode work, String pointer, long expected) {
        if (work.at(pointer).asLong(-1) != expected) {
            wrong.add(pointer.substring(1).replace('/', '.'));
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 400 ? text : text.substring(0, 400) + "...";
    }
}
