package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.http.InvalidParameterException;
import io.github.slingvt.demo.internal.http.Json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

public class WorkRequestTest {

    /** Every parameter with its cap. */
    public static final Map<String, Long> CAPS = Map.of(
            "reads", 100_000L,
            "writes", 1_000L,
            "fileLength", 104_857_600L,
            "idleDelay", 60_000L,
            "cpuIterations", 1_000_000L,
            "fanout", 100L,
            "fanoutDelay", 60_000L);

    /** For each parameter: non-numbers, negatives and values over the cap, with the reason given. */
    static Stream<Arguments> invalidValues() {
        return CAPS.entrySet().stream().flatMap(cap -> Stream.of(
                Arguments.of(cap.getKey(), "abc", "not a whole number"),
                Arguments.of(cap.getKey(), "1.5", "not a whole number"),
                Arguments.of(cap.getKey(), "1e3", "not a whole number"),
                Arguments.of(cap.getKey(), "0x10", "not a whole number"),
                Arguments.of(cap.getKey(), "", "not a whole number"),
                Arguments.of(cap.getKey(), "12abc", "not a whole number"),
                Arguments.of(cap.getKey(), "-1", "negative"),
                Arguments.of(cap.getKey(), "-99999999999999999999999", "negative"),
                Arguments.of(cap.getKey(), String.valueOf(cap.getValue() + 1), "over the maximum"),
                Arguments.of(cap.getKey(), "99999999999999999999999", "over the maximum")));
    }

    @ParameterizedTest(name = "{0}={1} -> {2}")
    @MethodSource("invalidValues")
    void invalidValueNamesParameterAndRange(String name, String value, String reason) {
        assertThatThrownBy(() -> WorkRequest.parse(Map.of(name, value)::get))
                .isInstanceOfSatisfying(InvalidParameterException.class, e -> {
                    assertThat(e.parameter()).isEqualTo(name);
                    assertThat(e.allowed()).isEqualTo("0-" + CAPS.get(name));
                    assertThat(e.value()).isEqualTo(value);
                    assertThat(e.getMessage()).contains(reason);
                });
    }

    @Test
    void missingParametersMeanZero() throws Exception {
        assertThat(WorkRequest.parse(name -> null)).isEqualTo(WorkRequest.NOTHING);
    }

    @Test
    void everyParameterIsReadAtItsCap() throws Exception {
        WorkRequest work = WorkRequest.parse(name -> String.valueOf(CAPS.get(name)));
        assertThat(work).isEqualTo(new WorkRequest(100_000, 1_000, 104_857_600, 60_000, 1_000_000, 100, 60_000));
    }

    @Test
    void eachParameterGoesToItsOwnField() throws Exception {
        WorkRequest work = WorkRequest.parse(Map.of("reads", "1", "writes", "2", "fileLength", "3",
                "idleDelay", "4", "cpuIterations", "5", "fanout", "6", "fanoutDelay", "7")::get);
        assertThat(work).isEqualTo(new WorkRequest(1, 2, 3, 4, 5, 6, 7));
    }

    @Test
    void surroundingBlanksAndPlusSignAreAccepted() throws Exception {
        assertThat(WorkRequest.parse(Map.of("reads", " 12 ", "writes", "+3")::get))
                .isEqualTo(new WorkRequest(12, 3, 0, 0, 0, 0, 0));
    }

    @Test
    void zeroAndMinusZeroAreZero() throws Exception {
        assertThat(WorkRequest.parse(Map.of("reads", "0", "writes", "-0")::get)).isEqualTo(WorkRequest.NOTHING);
    }

    @Test
    void firstInvalidParameterInStepOrderIsReported() {
        assertThatThrownBy(() -> WorkRequest.parse(Map.of("fanout", "x", "writes", "-2")::get))
                .isInstanceOfSatisfying(InvalidParameterException.class,
                        e -> assertThat(e.parameter()).isEqualTo("writes"));
    }

    @Test
    void longValuesAreCutInTheAnswer() {
        String value = "x".repeat(10_000);
        assertThatThrownBy(() -> WorkRequest.parse(Map.of("reads", value)::get))
                .isInstanceOfSatisfying(InvalidParameterException.class,
                        e -> assertThat(e.value()).hasSize(67).endsWith("..."));
    }

    @Test
    void errorJsonHasTheDocumentedFields() {
        InvalidParameterException e = new InvalidParameterException("idleDelay", 60_000, "-1", "negative");
        assertThat(Json.write(e.toJson())).startsWith("{\"error\":\"invalid parameter\","
                + "\"parameter\":\"idleDelay\",\"allowed\":\"0-60000\",\"value\":\"-1\"");
    }
}
