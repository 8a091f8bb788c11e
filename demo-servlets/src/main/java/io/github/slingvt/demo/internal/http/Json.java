package io.github.slingvt.demo.internal.http;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The servlets' JSON answers: ordered maps written by Jackson, the JSON library the feature ships. Written so
 * that an echoed parameter value can never be read as markup ({@code <}, {@code >}, {@code &} as {@code \}u
 * escapes) and a lone surrogate in a parameter still gives valid JSON (every non-ASCII character as a
 * {@code \}u escape).
 */
public final class Json {

    private static final ObjectWriter WRITER = new ObjectMapper().writer()
            .with(JsonWriteFeature.ESCAPE_NON_ASCII)
            .with(new MarkupSafeEscapes());

    private Json() {
    }

    /** An insertion-ordered map, so that answers list their fields in a stable, readable order. */
    public static Map<String, Object> object() {
        return new LinkedHashMap<>();
    }

    /** An ordered map of the given key, value pairs. */
    public static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> map = object();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** Maps, lists, strings, numbers, booleans and null, as JSON. */
    public static String write(Object value) {
        try {
            return WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            // Only the shapes above are ever written; anything else is a programming error.
            throw new IllegalArgumentException("not JSON-writable: " + value, e);
        }
    }

    /** Milliseconds with microsecond resolution, for step timings. */
    public static double millis(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    /** Jackson's standard escapes plus the three characters that start markup. */
    private static final class MarkupSafeEscapes extends CharacterEscapes {

        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        MarkupSafeEscapes() {
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializedString getEscapeSequence(int ch) {
            return null;
        }
    }
}
