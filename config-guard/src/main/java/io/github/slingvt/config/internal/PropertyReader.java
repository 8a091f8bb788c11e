package io.github.slingvt.config.internal;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.config.ConfigReader;

/**
 * The {@link ConfigReader} of this bundle: reads typed values from a raw property map and collects what it refuses
 * instead of throwing. Accepted forms: a value of the property's type, or a string of it (what the web console and
 * configuration files store), with surrounding blanks ignored. Refused: an empty or blank string, a list or array
 * where one value belongs, a number with a fraction where a whole number belongs, a value out of range, an unknown
 * option.
 */
public final class PropertyReader implements ConfigReader {

    /** A refused value is shown at most this long, so that a pasted file cannot flood the log. */
    static final int MAX_VALUE_LENGTH = 200;
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    private final String pid;
    private final Map<String, ?> properties;
    private final List<ConfigProblem> problems = new ArrayList<>();

    public PropertyReader(String pid, Map<String, ?> properties) {
        this.pid = Objects.requireNonNull(pid, "pid");
        this.properties = properties == null ? Map.of() : properties;
    }

    @Override
    public String pid() {
        return pid;
    }

    @Override
    public boolean bool(String name, boolean defaultValue) {
        Object raw = properties.get(name);
        if (raw instanceof Boolean b) {
            return b;
        }
        String allowed = "true or false";
        String s = single(name, raw, allowed);
        if (s == null) {
            return defaultValue;
        }
        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(s);
        }
        return refused(name, allowed, defaultValue);
    }

    @Override
    public int integer(String name, int defaultValue, int min, int max) {
        return (int) number(name, defaultValue, min, max);
    }

    @Override
    public Integer integerOrKeyword(String name, String keyword, int defaultValue, int min, int max) {
        Object raw = properties.get(name);
        if (raw instanceof String s && s.strip().equalsIgnoreCase(keyword)) {
            return null;
        }
        return (int) number(name, defaultValue, min, max, keyword + " or a whole number from " + min + " to " + max);
    }

    @Override
    public boolean isKeyword(String name, String keyword) {
        return properties.get(name) instanceof String s && s.strip().equalsIgnoreCase(keyword);
    }

    @Override
    public long number(String name, long defaultValue, long min, long max) {
        return number(name, defaultValue, min, max, "a whole number from " + min + " to " + max);
    }

    private long number(String name, long defaultValue, long min, long max, String allowed) {
        Object raw = properties.get(name);
        Long value;
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte) {
            value = ((Number) raw).longValue();
        } else if (raw instanceof Number n) {
            value = wholeNumber(n);
        } else {
            String s = single(name, raw, allowed);
            if (s == null) {
                return defaultValue;
            }
            value = parseLong(s);
        }
        if (value == null || value < min || value > max) {
            return refused(name, allowed, defaultValue);
        }
        return value;
    }

    @Override
    public double decimal(String name, double defaultValue, double min, double max) {
        Object raw = properties.get(name);
        String allowed = "a number from " + plain(min) + " to " + plain(max);
        double value;
        if (raw instanceof Number n) {
            value = n.doubleValue();
        } else {
            String s = single(name, raw, allowed);
            if (s == null) {
                return defaultValue;
            }
            if (!DECIMAL.matcher(s).matches()) {
                return refused(name, allowed, defaultValue);
            }
            value = Double.parseDouble(s);
        }
        if (!Double.isFinite(value) || value < min || value > max) {
            return refused(name, allowed, defaultValue);
        }
        return value;
    }

    @Override
    public String option(String name, String defaultValue, String... options) {
        String allowed = "one of " + String.join(", ", options);
        String s = single(name, properties.get(name), allowed);
        if (s == null) {
            return defaultValue;
        }
        for (String option : options) {
            if (option.equalsIgnoreCase(s)) {
                return option;
            }
        }
        return refused(name, allowed, defaultValue);
    }

    @Override
    public String text(String name, String defaultValue) {
        Object raw = properties.get(name);
        if (raw == null && defaultValue == null) {
            refuse(name, "a non-empty text (the property is required)");
            return null;
        }
        String s = single(name, raw, "a non-empty text");
        return s == null ? defaultValue : s;
    }

    @Override
    public List<String> texts(String name, List<String> defaultValue) {
        Object raw = properties.get(name);
        if (raw == null) {
            return defaultValue;
        }
        List<String> values = new ArrayList<>();
        if (raw instanceof String s) {
            values.add(s);
        } else if (raw.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(raw); i++) {
                values.add(textElement(Array.get(raw, i)));
            }
        } else if (raw instanceof Collection<?> c) {
            c.forEach(e -> values.add(textElement(e)));
        } else {
            return refused(name, "a list of texts", defaultValue);
        }
        if (values.contains(null)) {
            return refused(name, "a list of texts", defaultValue);
        }
        return List.copyOf(values);
    }

    @Override
    public void refuse(String name, String allowed) {
        problems.add(new ConfigProblem(pid, name, describe(properties.get(name)), allowed));
    }

    @Override
    public List<ConfigProblem> problems() {
        return List.copyOf(problems);
    }

    /** The value as an operator would recognise it: a list as {@code [a, b]}, missing as empty. */
    static String describe(Object raw) {
        String text;
        if (raw == null) {
            text = "";
        } else if (raw.getClass().isArray()) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < Array.getLength(raw); i++) {
                parts.add(String.valueOf(Array.get(raw, i)));
            }
            text = parts.toString();
        } else {
            text = String.valueOf(raw);
        }
        return text.length() > MAX_VALUE_LENGTH ? text.substring(0, MAX_VALUE_LENGTH) + "..." : text;
    }

    /** The trimmed string of a single value, or {@code null} if absent (no problem) or refused (recorded). */
    private String single(String name, Object raw, String allowed) {
        if (raw == null) {
            return null;
        }
        if (raw.getClass().isArray() || raw instanceof Collection) {
            refuse(name, "a single value, " + allowed);
            return null;
        }
        if (!(raw instanceof String s)) {
            refuse(name, allowed);
            return null;
        }
        String trimmed = s.strip();
        if (trimmed.isEmpty()) {
            refuse(name, allowed);
            return null;
        }
        return trimmed;
    }

    private <T> T refused(String name, String allowed, T defaultValue) {
        refuse(name, allowed);
        return defaultValue;
    }

    private static String textElement(Object element) {
        return element instanceof String s ? s : null;
    }

    /** 1000000000, not 1.0E9: the operator reads it. */
    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static Long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long wholeNumber(Number n) {
        try {
            if (n instanceof BigInteger big) {
                return big.longValueExact();
            }
            BigDecimal d = n instanceof BigDecimal bd ? bd : new BigDecimal(n.toString());
            return d.longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return null;
        }
    }
}
