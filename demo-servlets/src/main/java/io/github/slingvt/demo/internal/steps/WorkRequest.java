package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.http.InvalidParameterException;
import io.github.slingvt.demo.internal.http.Json;
import io.github.slingvt.demo.internal.http.ParameterValidator;

import java.util.Map;
import java.util.function.Function;

/** The validated query parameters of a work request; each one is 0 when absent. */
public record WorkRequest(long reads, int writes, long fileLength, long idleDelay, int cpuIterations, int fanout,
        long fanoutDelay) {

    public static final long MAX_READS = 100_000;
    static final long MAX_WRITES = 1_000;
    public static final long MAX_FILE_LENGTH = 100L * 1024 * 1024;
    public static final long MAX_DELAY = 60_000;
    public static final long MAX_CPU_ITERATIONS = 1_000_000;
    public static final long MAX_FANOUT = 100;

    static final WorkRequest NOTHING = new WorkRequest(0, 0, 0, 0, 0, 0, 0);

    /** Checks the parameters in the order the steps run, so the first bad one is the one reported. */
    public static WorkRequest parse(Function<String, String> parameters) throws InvalidParameterException {
        return new WorkRequest(
                ParameterValidator.parse(parameters, "reads", MAX_READS),
                (int) ParameterValidator.parse(parameters, "writes", MAX_WRITES),
                ParameterValidator.parse(parameters, "fileLength", MAX_FILE_LENGTH),
                ParameterValidator.parse(parameters, "idleDelay", MAX_DELAY),
                (int) ParameterValidator.parse(parameters, "cpuIterations", MAX_CPU_ITERATIONS),
                (int) ParameterValidator.parse(parameters, "fanout", MAX_FANOUT),
                ParameterValidator.parse(parameters, "fanoutDelay", MAX_DELAY));
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = Json.object();
        json.put("reads", reads);
        json.put("writes", writes);
        json.put("fileLength", fileLength);
        json.put("idleDelay", idleDelay);
        json.put("cpuIterations", cpuIterations);
        json.put("fanout", fanout);
        json.put("fanoutDelay", fanoutDelay);
        return json;
    }
}
