package io.github.slingvt.demo.internal.http;

import io.github.slingvt.demo.internal.Fixtures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

public class JsonTest {

    @Test
    void writesNestedObjectsInInsertionOrder() {
        String json = Json.write(Json.object("b", 1, "a", Json.object("virtual", true, "name", "x"),
                "list", List.of(1L, "two"), "none", null, "ms", 1.5));
        assertThat(json).isEqualTo(
                "{\"b\":1,\"a\":{\"virtual\":true,\"name\":\"x\"},\"list\":[1,\"two\"],\"none\":null,\"ms\":1.5}");
    }

    @Test
    void escapesQuotesControlCharactersAndMarkup() {
        assertThat(Json.write("a\"b\\c\n\u0001<script>"))
                .isEqualToIgnoringCase("\"a\\\"b\\\\c\\n\\u0001\\u003cscript\\u003e\"");
    }

    @Test
    void outputParsesAsJson() {
        String json = Json.write(Json.object("s", "\ud83d\ude00 \ud800 x", "n", -3L));
        assertThat(json).containsIgnoringCase("\\ud800");
        assertThat(Fixtures.json(json).getString("s")).startsWith("\ud83d\ude00 ");
        assertThat(Fixtures.json(json).getInt("n")).isEqualTo(-3);
    }

    @Test
    void millisKeepMicroseconds() {
        assertThat(Json.millis(1_234_567)).isEqualTo(1.235);
    }
}
