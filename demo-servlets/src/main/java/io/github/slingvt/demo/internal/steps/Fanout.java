package io.github.slingvt.demo.internal.steps;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Concurrent downstream HTTP calls to the slow endpoint of this instance, written two ways: blocking calls on one
 * virtual thread each, and {@code sendAsync} futures for the async servlet.
 */
public final class Fanout implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Fanout.class);

    public static final String SLOW_PATH = "/bin/vt/slow.json";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How much longer than the requested delay a call may take before it counts as failed. */
    public static final long TIMEOUT_MARGIN_MS = 30_000;

    private final ExecutorService clientExecutor = Executors.newVirtualThreadPerTaskExecutor();
    /**
     * Built on the first fan-out: a JDK HttpClient starts its selector, an OS thread, when it is built, and most
     * instances never fan out (issue #13: OS threads under load).
     */
    private HttpClient client;
    private boolean closed;

    private synchronized HttpClient client() {
        // No blocking inside: building the client only starts its selector thread.
        if (closed) {
            throw new IllegalStateException("fan-out closed: the demo servlets are being deactivated");
        }
        if (client == null) {
            client = HttpClient.newBuilder()
                    .executor(clientExecutor)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
        }
        return client;
    }

    /**
     * @param authorization the caller's Authorization header, passed on so that the calls work where anonymous
     *        access is off; they only ever go to this instance's loopback address
     */
    static HttpRequest request(int port, long delay, String authorization) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + SLOW_PATH + "?delay=" + delay))
                .timeout(Duration.ofMillis(delay + TIMEOUT_MARGIN_MS))
                .GET();
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder.build();
    }

    /** Blocking client code: each call on its own virtual thread, all of them at once. */
    WorkReport.Fanout callBlocking(int port, int calls, long delay, String authorization) throws WorkException {
        if (calls == 0) {
            return new WorkReport.Fanout(0, 0, 0, delay, null);
        }
        HttpRequest request = request(port, delay, authorization);
        HttpClient client = client();
        List<Future<String>> outcomes = new ArrayList<>(calls);
        List<String> failures = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < calls; i++) {
                outcomes.add(callers.submit(
                        () -> outcome(client.send(request, HttpResponse.BodyHandlers.discarding()))));
            }
            for (Future<String> outcome : outcomes) {
                try {
                    String failure = outcome.get();
                    if (failure != null) {
                        failures.add(failure);
                    }
                } catch (ExecutionException e) {
                    failures.add(describe(e.getCause()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException("fanout", "interrupted while waiting for " + calls + " downstream calls", e);
        }
        return summary(calls, delay, failures);
    }

    /** Async client code: no thread waits for the responses. */
    public CompletableFuture<WorkReport.Fanout> callAsync(int port, int calls, long delay, String authorization) {
        if (calls == 0) {
            return CompletableFuture.completedFuture(new WorkReport.Fanout(0, 0, 0, delay, null));
        }
        HttpRequest request = request(port, delay, authorization);
        HttpClient client = client();
        List<CompletableFuture<String>> outcomes = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            outcomes.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .handle((response, error) -> error != null ? describe(error) : outcome(response)));
        }
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<String> failures = new ArrayList<>();
            for (CompletableFuture<String> outcome : outcomes) {
                String failure = outcome.join();
                if (failure != null) {
                    failures.add(failure);
                }
            }
            return summary(calls, delay, failures);
        });
    }

    /** @return null for a successful call, else what went wrong */
    private static String outcome(HttpResponse<?> response) {
        return response.statusCode() == 200 ? null : "HTTP " + response.statusCode();
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
        return cause instanceof IOException || cause instanceof InterruptedException
                ? cause.getClass().getSimpleName() + ": " + cause.getMessage()
                : cause.toString();
    }

    private static WorkReport.Fanout summary(int calls, long delay, List<String> failures) {
        if (!failures.isEmpty()) {
            LOG.debug("{} of {} downstream calls failed, first: {}", failures.size(), calls, failures.get(0));
        }
        return new WorkReport.Fanout(calls, calls - failures.size(), failures.size(), delay,
                failures.isEmpty() ? null : failures.get(0));
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.shutdownNow();
        }
        clientExecutor.shutdownNow();
    }
}
