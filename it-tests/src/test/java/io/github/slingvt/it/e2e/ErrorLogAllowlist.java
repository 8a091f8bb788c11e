package io.github.slingvt.it.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code *ERROR*} lines of a Sling error.log that are known and harmless, from the test resource
 * {@code e2e/error-log-allowlist.txt}: one Java regex per line (matched with {@code find()} against the whole log
 * line), each directly preceded by a {@code # reason} comment line. Blank lines and other comment lines are ignored.
 */
final class ErrorLogAllowlist {

    static final String RESOURCE = "/e2e/error-log-allowlist.txt";

    /** A line logback writes with the pattern of feature-model/src/main/conf/logback.xml. */
    private static final Pattern LOG_ENTRY =
            Pattern.compile("^\\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\*");
    private static final Pattern ERROR_ENTRY = Pattern.compile(LOG_ENTRY.pattern() + "ERROR\\* ");
    private static final int MAX_CONTINUATION_LINES = 8;

    private final List<Pattern> patterns;

    private ErrorLogAllowlist(List<Pattern> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    static ErrorLogAllowlist load() {
        try (InputStream in = ErrorLogAllowlist.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing test resource " + RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ErrorLogAllowlist parse(List<String> lines) {
        final List<Pattern> patterns = new ArrayList<>();
        String previous = "";
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                if (!previous.matches("#\\s*\\S.*")) {
                    throw new IllegalStateException(RESOURCE + " line " + (i + 1) + ": the regex '" + line
                            + "' needs a '# reason' comment on the line before it");
                }
                try {
                    patterns.add(Pattern.compile(line));
                } catch (PatternSyntaxException e) {
                    throw new IllegalStateException(RESOURCE + " line " + (i + 1) + ": invalid regex", e);
                }
            }
            previous = line;
        }
        return new ErrorLogAllowlist(patterns);
    }

    int size() {
        return patterns.size();
    }

    boolean allows(String logLine) {
        return patterns.stream().anyMatch(pattern -> pattern.matcher(logLine).find());
    }

    /**
     * The {@code *ERROR*} entries of the log lines that no regex allows, each with up to 8 of its continuation lines
     * (stack trace) for the failure message.
     */
    List<String> unexpectedErrors(List<String> logLines) {
        final List<String> unexpected = new ArrayList<>();
        for (int i = 0; i < logLines.size(); i++) {
            final String line = logLines.get(i);
            if (ERROR_ENTRY.matcher(line).find() && !allows(line)) {
                final StringBuilder entry = new StringBuilder(line);
                for (int j = i + 1; j < logLines.size() && j <= i + MAX_CONTINUATION_LINES
                        && !LOG_ENTRY.matcher(logLines.get(j)).find(); j++) {
                    entry.append('\n').append(logLines.get(j));
                }
                unexpected.add(entry.toString());
            }
        }
        return unexpected;
    }
}
