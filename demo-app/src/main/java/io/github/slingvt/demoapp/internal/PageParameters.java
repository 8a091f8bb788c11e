package io.github.slingvt.demoapp.internal;

import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The demo page's query parameters: {@code reads} (item nodes to read, 0-{@value #MAX_READS}) and {@code delay}
 * (milliseconds to wait on the downstream call, 0-{@value #MAX_DELAY}). Absent means 0; anything else that is not
 * a plain whole number in range is refused, so that a typo never turns into a different workload.
 */
record PageParameters(int reads, long delay) {

    static final int MAX_READS = 10_000;
    static final long MAX_DELAY = 10_000;

    /** Up to 5 digits: every allowed value, and no number too long to parse. */
    private static final Pattern WHOLE = Pattern.compile("[0-9]{1,5}");
    private static final int MAX_ECHOED_CHARS = 32;

    static PageParameters parse(Function<String, String> parameters) {
        return new PageParameters((int) parse(parameters, "reads", MAX_READS), parse(parameters, "delay", MAX_DELAY));
    }

    private static long parse(Function<String, String> parameters, String name, long max) {
        String raw = parameters.apply(name);
        if (raw == null) {
            return 0;
        }
        long value = WHOLE.matcher(raw).matches() ? Long.parseLong(raw) : -1;
        if (value < 0 || value > max) {
            String shown = raw.length() <= MAX_ECHOED_CHARS ? raw : raw.substring(0, MAX_ECHOED_CHARS) + "...";
            throw new InvalidPageParameterException(name, "parameter " + name + "=" + shown
                    + " is not allowed: it must be a whole number from 0 to " + max);
        }
        return value;
    }

    /** A parameter out of its range; the message names it and its range. */
    static final class InvalidPageParameterException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        private final String parameter;

        InvalidPageParameterException(String parameter, String message) {
            super(message);
            this.parameter = parameter;
        }

        String parameter() {
            return parameter;
        }
    }
}
