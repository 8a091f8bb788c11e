package io.github.slingvt.demo.internal.http;

import java.math.BigInteger;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads one whole-number request parameter within 0..max. A missing parameter means 0; anything else that is not
 * a plain decimal integer in range is refused, so that a typo never silently turns into a different workload.
 */
public final class ParameterValidator {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private ParameterValidator() {
    }

    public static long parse(Function<String, String> parameters, String name, long max) throws InvalidParameterException {
        String raw = parameters.apply(name);
        if (raw == null) {
            return 0;
        }
        String text = raw.strip();
        if (!INTEGER.matcher(text).matches()) {
            throw new InvalidParameterException(name, max, raw, "not a whole number");
        }
        // BigInteger: digits beyond the range of long are "over the cap", not "not a number".
        BigInteger number = new BigInteger(text);
        if (number.signum() < 0) {
            throw new InvalidParameterException(name, max, raw, "negative");
        }
        if (number.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new InvalidParameterException(name, max, raw, "over the maximum");
        }
        return number.longValueExact();
    }
}
