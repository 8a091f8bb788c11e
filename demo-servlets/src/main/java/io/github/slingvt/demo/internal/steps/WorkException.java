package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.http.Json;

import java.util.Map;

/**
 * A work step that could not be done: content not seeded yet, repository or login failure, interruption. Answered
 * 503 with the step's name, never 500: the cause is the instance's state, not a bug the client can see.
 */
public final class WorkException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String step;

    public WorkException(String step, String message) {
        super(message);
        this.step = step;
    }

    public WorkException(String step, String message, Throwable cause) {
        super(message, cause);
        this.step = step;
    }

    public String step() {
        return step;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = Json.object();
        json.put("error", "work step failed");
        json.put("step", step);
        json.put("message", getMessage());
        return json;
    }
}
