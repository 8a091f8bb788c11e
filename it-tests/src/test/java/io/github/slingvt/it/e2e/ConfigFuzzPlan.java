package io.github.slingvt.it.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * The bad values of the configuration fuzz test, chosen by each property's metatype type as the web console
 * describes it ({@code POST /system/console/configMgr/PID}), so that a property added later is fuzzed without
 * touching the test. Two channels, because the console converts some input before Config Admin sees it:
 * <ul>
 * <li>console: what an operator can type into a field (a word, empty, blanks, out of range); the console stores a
 * text that it cannot convert as text. It turns anything typed into a checkbox into {@code false}, so booleans are
 * not fuzzed through it, and it keeps only the first value of a single-valued field.</li>
 * <li>file: what a configuration file ({@code PID.cfg.json} in the installer folder) can hold and the console cannot:
 * a list where one value belongs, a JSON value of the wrong type, a word for a boolean.</li>
 * </ul>
 * Round {@code r} gives every property of a PID its {@code r}-th bad value of its kind (cycling), all at once.
 */
final class ConfigFuzzPlan {

    /** WHOLE_OR_AUTO: a text property that holds a whole number or the word "auto" (maxConcurrentRequests). */
    enum Kind { WHOLE, WHOLE_OR_AUTO, DECIMAL, BOOLEAN, OPTION, TEXT, TEXTS }

    /**
     * One property of one PID, with the value it has when the instance is healthy. Properties that are not
     * {@code ours} are written with their good value (the console drops a property left out of a save) but not fuzzed.
     */
    record Property(String pid, String name, Kind kind, List<String> good, boolean ours) {
    }

    /** A bad value given to a property; {@code shown} is how the refusal must quote it. */
    record Case(Property property, JsonNode value, String shown) {
    }

    /**
     * Read by Felix Health Checks from the service properties, not by Sling VT's code; any text is valid there. Named
     * here so that leaving them out is a decision, not an accident.
     */
    static final List<String> NOT_OURS = List.of("hc.name", "hc.tags");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String HUGE = "99999999999999999999";

    private static final Map<Kind, List<JsonNode>> CONSOLE = Map.of(
            Kind.WHOLE, texts("lots", "auto", "", "   ", "-5", HUGE, "5.5"),
            Kind.WHOLE_OR_AUTO, texts("lots", "", "   ", "-5", HUGE, "5.5", "autox"),
            Kind.DECIMAL, texts("lots", "", "   ", "-5", "NaN", "1,5", HUGE),
            Kind.OPTION, texts("fast", "", "   "),
            Kind.TEXT, texts("", "   "),
            Kind.TEXTS, List.of(list("oak"), list("oak=fast"), list("oak=virtual", "oak=kernel")),
            Kind.BOOLEAN, List.of());

    private static final Map<Kind, List<JsonNode>> FILE = Map.of(
            Kind.WHOLE, List.of(list("1", "2"), NODES.booleanNode(true), NODES.numberNode(1.5)),
            Kind.WHOLE_OR_AUTO, List.of(list("1", "2"), NODES.booleanNode(true), NODES.numberNode(1.5)),
            Kind.DECIMAL, List.of(list("1", "2"), NODES.booleanNode(true), NODES.arrayNode().add(1.0).add(2.0)),
            Kind.OPTION, List.of(list("virtual", "kernel"), NODES.booleanNode(true), NODES.numberNode(7)),
            Kind.TEXT, List.of(list("a", "b"), NODES.booleanNode(true), NODES.numberNode(7)),
            Kind.TEXTS, List.of(NODES.numberNode(5), NODES.booleanNode(true), NODES.arrayNode().add(5).add(6)),
            Kind.BOOLEAN, List.of(NODES.textNode("lots"), NODES.textNode(""), list("true", "false")));

    /** Rounds needed so that every value of every kind is used once. */
    static final int CONSOLE_ROUNDS = CONSOLE.values().stream().mapToInt(List::size).max().orElseThrow();
    static final int FILE_ROUNDS = FILE.values().stream().mapToInt(List::size).max().orElseThrow();
    /**
     * The console rounds that are checked across a restart too; every round is checked live, every file round across
     * a restart. Config Admin keeps what the console stored, and a start reads it through the same config guard as a
     * live change, so what a restart adds depends on the stored form, not on the text: round 0 stores a word for every
     * kind (text the console could not convert), round 3 a number out of range as a decimal (-5), round 4 one as a
     * whole number (-5) and NaN. Each restart costs about 15 s of a 2-core CI run (Oak waits up to 5 s at a stop
     * within a minute of a login, then a start), so the other four console rounds are live only.
     */
    static final Set<Integer> CONSOLE_ROUNDS_ACROSS_RESTART = Set.of(0, 3, 4);

    private ConfigFuzzPlan() {
    }

    /** The properties of one PID from the console's description of it (the metatype). */
    static List<Property> properties(String pid, JsonNode description) {
        List<Property> properties = new ArrayList<>();
        description.path("properties").properties().forEach(e -> {
            JsonNode p = e.getValue();
            List<String> good = new ArrayList<>();
            if (p.has("values")) {
                p.path("values").forEach(v -> good.add(v.asText()));
            } else {
                good.add(p.path("value").asText());
            }
            properties.add(new Property(pid, e.getKey(), kind(p), good, !NOT_OURS.contains(e.getKey())));
        });
        return properties;
    }

    private static Kind kind(JsonNode p) {
        JsonNode type = p.path("type");
        if (type.isObject()) {
            return Kind.OPTION;
        }
        return switch (type.asInt()) {
            case 2, 3, 4, 6 -> Kind.WHOLE;
            case 7, 8 -> Kind.DECIMAL;
            case 11 -> Kind.BOOLEAN;
            case 1 -> p.has("values") ? Kind.TEXTS
                    : p.path("value").asText().matches("-?\\d+|auto") ? Kind.WHOLE_OR_AUTO : Kind.TEXT;
            default -> throw new IllegalStateException("No bad values for metatype type " + type + " of " + p);
        };
    }

    /** The console round {@code r} of one property, or null when the console cannot carry its kind. */
    static JsonNode consoleValue(Property p, int round) {
        return p.ours() ? pick(CONSOLE.get(p.kind()), round) : null;
    }

    /** The file round {@code r} of one property, or null when it is not fuzzed. */
    static JsonNode fileValue(Property p, int round) {
        return p.ours() ? pick(FILE.get(p.kind()), round) : null;
    }

    /** How a refusal quotes a value: a list as {@code [a, b]}, anything else as its text. */
    static String shown(JsonNode value) {
        if (!value.isArray()) {
            return value.asText();
        }
        List<String> parts = new ArrayList<>();
        value.forEach(v -> parts.add(v.isNumber() ? v.numberValue().toString() : v.asText()));
        return parts.toString();
    }

    /** A configuration file's content: every property of the PID at its good value, except the bad ones. */
    static String fileContent(List<Property> properties, Map<String, JsonNode> bad) {
        Map<String, JsonNode> content = new LinkedHashMap<>();
        for (Property p : properties) {
            content.put(p.name(), p.kind() == Kind.TEXTS ? list(p.good().toArray(String[]::new))
                    : NODES.textNode(p.good().get(0)));
        }
        content.putAll(bad);
        return NODES.objectNode().setAll(content).toString();
    }

    private static JsonNode pick(List<JsonNode> values, int round) {
        return values.isEmpty() ? null : values.get(round % values.size());
    }

    private static List<JsonNode> texts(String... values) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String v : values) {
            nodes.add(NODES.textNode(v));
        }
        return nodes;
    }

    private static JsonNode list(String... values) {
        return NODES.arrayNode().addAll(texts(values));
    }
}
