package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A Chrome DevTools protocol connection to one browser target (a page) on a WebSocket of the JDK's HttpClient, for
 * {@link HeadlessChromium}: commands with an id whose answer is awaited (bounded), and events that a caller registered
 * for before it caused them. Every wait is bounded, and a closed or failed connection fails whatever still waits.
 */
final class DevToolsConnection implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicInteger ids = new AtomicInteger();
    /** Commands sent and not answered yet, by id. */
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    /** Events someone waits for: the method name and the future its next event completes. */
    private final List<Map.Entry<String, CompletableFuture<JsonNode>>> waiters = new CopyOnWriteArrayList<>();
    private final Object sendLock = new Object();
    private volatile WebSocket socket;

    private DevToolsConnection() {
    }

    /** Connects to a target's {@code webSocketDebuggerUrl} (from the browser's /json/list). */
    static DevToolsConnection open(HttpClient http, URI webSocketDebuggerUrl, Duration timeout) {
        final DevToolsConnection connection = new DevToolsConnection();
        connection.socket = await(http.newWebSocketBuilder().connectTimeout(timeout)
                .buildAsync(webSocketDebuggerUrl, connection.new Listener()), timeout, "the DevTools WebSocket");
        return connection;
    }

    /** Sends a command and waits for its answer's result; throws the protocol's error if the answer is one. */
    JsonNode send(String method, Map<String, ?> params, Duration timeout) {
        final int id = ids.incrementAndGet();
        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            final String message = JSON.writeValueAsString(Map.of("id", id, "method", method, "params", params));
            // One message at a time: the WebSocket refuses to send while its previous message is still going out.
            synchronized (sendLock) {
                await(socket.sendText(message, true), timeout, "sending " + method);
            }
            final JsonNode response = await(answer, timeout, "the answer to " + method);
            final JsonNode error = response.get("error");
            if (error != null) {
                throw new IllegalStateException(method + " failed: " + error.path("message").asText() + " "
                        + error.path("data").asText(""));
            }
            return response.path("result");
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + method + " as JSON", e);
        } finally {
            pending.remove(id);
        }
    }

    /**
     * Waits (bounded) for the next event {@code method} that comes while {@code action} runs or after it: registered
     * first, so that an event that comes before the action's answer does not pass unseen.
     */
    JsonNode awaitEvent(String method, Runnable action, Duration timeout) {
        final Map.Entry<String, CompletableFuture<JsonNode>> waiter = Map.entry(method, new CompletableFuture<>());
        waiters.add(waiter);
        try {
            action.run();
            return await(waiter.getValue(), timeout, "the event " + method);
        } finally {
            waiters.remove(waiter);
        }
    }

    /** Drops the connection at once (the browser may be gone) and fails every command and event still awaited. */
    @Override
    public void close() {
        socket.abort();
        failAll(new IllegalStateException("the DevTools connection was closed"));
    }

    /** Answers go to the command with their id, events to whoever waits for them; the rest is dropped. */
    private void dispatch(String text) {
        try {
            final JsonNode message = JSON.readTree(text);
            final CompletableFuture<JsonNode> answer = pending.get(message.path("id").asInt(-1));
            if (answer != null) {
                answer.complete(message);
            }
            final String method = message.path("method").asText();
            waiters.stream().filter(w -> w.getKey().equals(method)).forEach(w -> w.getValue().complete(message));
        } catch (IOException ignored) {
            // The protocol sends JSON only; nothing can wait for anything else.
        }
    }

    private void failAll(Throwable reason) {
        pending.values().forEach(answer -> answer.completeExceptionally(reason));
        waiters.forEach(waiter -> waiter.getValue().completeExceptionally(reason));
    }

    /** Collects the fragments of each text message (a screenshot comes in many) and dispatches whole messages. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                dispatch(text.toString());
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            failAll(new IllegalStateException("the browser closed the DevTools connection (" + statusCode + ")"));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            failAll(new IllegalStateException("the DevTools connection failed: " + error, error));
        }
    }

    /** Waits for a future, bounded; a timeout, a failure or an interrupt is an IllegalStateException naming it. */
    static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no " + what + " within " + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }
}
