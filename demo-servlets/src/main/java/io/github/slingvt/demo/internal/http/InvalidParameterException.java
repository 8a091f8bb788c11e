package io.github.slingvt.demo.internal.http;

import java.util.Map;

/** A request parameter outside its allowed range; answered 400 with a body naming the parameter and the range. */
public final class InvalidParameterException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Longer values are cut in the answer, so that a client cannot make the server echo megabytes. */
    private static final int MAX_ECHOED_CHARS = 64;

    private final String parameter;
    private final long max;
    private final String value;

    public InvalidParameterException(String parameter, long max, String value, String reason) {
        super(parameter + "=" + cut(value) + ": " + reason + ", allowed 0-" + max);
        this.parameter = parameter;
        this.max = max;
        this.value = cut(value);
    }

    public String parameter() {
        return parameter;
    }

    public String allowed() {
        return "0-" + max;
    }

    public String value() {
        return value;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = Json.object();
        json.put("error", "invalid parameter");
        json.put("parameter", parameter);
        json.put("allowed", allowed());
        json.put("value", value);
        json.put("message", getMessage());
        return json;
    }

    private static String cut(String value) {
        return value.length() <= MAX_ECHOED_CHARS ? value : value.substring(0, MAX_ECHOED_CHARS) + "...";
    }
}
