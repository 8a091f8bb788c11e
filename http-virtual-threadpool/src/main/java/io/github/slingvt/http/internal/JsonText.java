package io.github.slingvt.http.internal;

/** JSON string literals for the hand-written JSON of this bundle (it has no JSON library, and needs none). */
final class JsonText {

    private JsonText() {
    }

    /** {@code value} as a quoted JSON string; error messages echo request parameters, so everything is escaped. */
    static String quote(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    // Below 0x20 must be escaped; '<' too, so that JSON pasted into HTML cannot open a tag.
                    if (c < 0x20 || c == '<') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
