package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.http.Json;

import java.util.Map;

/**
 * What one work request did, step by step, and how long each step took. Steps run one after the other (in the
 * async servlet, as stages of one future chain), so plain fields suffice.
 */
public final class WorkReport {

    record Reads(long nodes, long properties, long missing) {
    }

    record Writes(int nodes, String path, boolean removed) {
    }

    record FileRead(long bytes, String binary) {
    }

    public record Cpu(int iterations, String digest) {
    }

    public record Fanout(int calls, int ok, int failed, long delay, String firstError) {
    }

    private final String mode;
    private final Map<String, Object> thread;
    private final WorkRequest request;
    private final long started = System.nanoTime();
    private final Map<String, Object> timings = Json.object();
    private final Map<String, Object> extra = Json.object();

    private Reads reads = new Reads(0, 0, 0);
    private Writes writes = new Writes(0, null, false);
    private FileRead fileRead = new FileRead(0, null);
    private double idleMillis;
    private Cpu cpu = new Cpu(0, null);
    private Fanout fanout = new Fanout(0, 0, 0, 0, null);

    public WorkReport(String mode, WorkRequest request) {
        this.mode = mode;
        this.request = request;
        this.thread = currentThread();
    }

    public static Map<String, Object> currentThread() {
        Thread t = Thread.currentThread();
        Map<String, Object> json = Json.object();
        json.put("virtual", t.isVirtual());
        json.put("name", t.getName());
        json.put("id", t.threadId());
        return json;
    }

    void reads(Reads result, long startNanos) {
        reads = result;
        time("reads", startNanos);
    }

    void writes(Writes result, long startNanos) {
        writes = result;
        time("writes", startNanos);
    }

    void fileRead(FileRead result, long startNanos) {
        fileRead = result;
        time("fileLength", startNanos);
    }

    public void idle(long startNanos) {
        idleMillis = time("idleDelay", startNanos);
    }

    public void cpu(Cpu result, long startNanos) {
        cpu = result;
        time("cpuIterations", startNanos);
    }

    public void fanout(Fanout result, long startNanos) {
        fanout = result;
        time("fanout", startNanos);
    }

    /** Adds a field after the standard ones (the async servlet tells how it ran). */
    public void put(String key, Object value) {
        extra.put(key, value);
    }

    public double idleMillis() {
        return idleMillis;
    }

    public Fanout fanout() {
        return fanout;
    }

    /** 502 when a downstream call failed, so that load generators count the request as an error. */
    public int status() {
        return fanout.failed() > 0 ? 502 : 200;
    }

    private double time(String step, long startNanos) {
        double ms = Json.millis(System.nanoTime() - startNanos);
        timings.put(step, ms);
        return ms;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> t = Json.object();
        t.putAll(timings);
        t.put("total", Json.millis(System.nanoTime() - started));
        Map<String, Object> json = Json.object(
                "mode", mode,
                "thread", thread,
                "params", request.toJson(),
                "reads", Json.object("nodes", reads.nodes(), "properties", reads.properties(),
                        "missing", reads.missing()),
                "writes", Json.object("nodes", writes.nodes(), "path", writes.path(), "removed", writes.removed()),
                "fileLength", Json.object("bytes", fileRead.bytes(), "binary", fileRead.binary()),
                "idleDelay", Json.object("requested", request.idleDelay(), "ms", idleMillis),
                "cpuIterations", Json.object("iterations", cpu.iterations(), "digest", cpu.digest()),
                "fanout", Json.object("calls", fanout.calls(), "ok", fanout.ok(), "failed", fanout.failed(),
                        "delay", fanout.delay(), "firstError", fanout.firstError()),
                "timings", t);
        json.putAll(extra);
        return json;
    }
}
