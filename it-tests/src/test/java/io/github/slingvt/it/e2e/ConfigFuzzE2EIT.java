package io.github.slingvt.it.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.slingvt.it.e2e.ConfigFuzzPlan.Case;
import io.github.slingvt.it.e2e.ConfigFuzzPlan.Property;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue #17: for every property of every Sling VT configuration, bad values (a word where a number belongs, empty,
 * blanks, negative, huge, a fraction, an unknown option, a list where one value belongs, a JSON value of the wrong
 * type) are applied live, through the web console or a configuration file, and then across a restart (each stored
 * form: see {@link ConfigFuzzPlan#CONSOLE_ROUNDS_ACROSS_RESTART}). For each:
 * an ERROR names the PID, the property and the value; requests still run on virtual threads; the status JSON, the
 * console page and the health check name the refusal; the settings in force and the demo content are unchanged.
 * Before the config guard, a word in a number field left the HTTP layer in "failed activation" after a restart, with
 * requests on platform threads and nothing in the log.
 */
class ConfigFuzzE2EIT extends OwnInstanceTestSupport {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigFuzzE2EIT.class);
    private static final String POOL_FACTORY = "org.apache.sling.commons.threads.impl.DefaultThreadPool.factory";
    private static final String FILE_POOL = POOL_FACTORY + "~slingvt-fuzz-file";
    private static final List<String> SINGLETONS = List.of("io.github.slingvt.http.VirtualThreads",
            "io.github.slingvt.http.PinningDetector", "io.github.slingvt.http.ThreadingHealthCheck",
            "io.github.slingvt.threads.VirtualThreadPools", "io.github.slingvt.demo.DemoServlets",
            "io.github.slingvt.demo.ContentSeeder", "io.github.slingvt.observability.Metrics",
            "io.github.slingvt.observability.Prometheus");

    @Test
    void everyBadValueIsRefusedByNameLiveAndAfterARestartWhileRequestsStayVirtual() throws Exception {
        startSeeded(builder());
        // A factory configuration that the console creates gets a "factory.<uuid>" PID, which the file installer's
        // write-back turns into a file that it reads as another configuration at the next start, deleting the
        // console's (Sling installer behaviour, docs/UPSTREAM.md). The pool configuration is therefore fuzzed through a
        // file with a named PID, with the console's values (as text) in the console rounds.
        String consolePool = ConsoleConfigs.createFactoryConfiguration(sling.baseUrl(), POOL_FACTORY,
                Map.of("name", List.of("slingvt-fuzz")));
        List<Property> poolProperties = ConfigFuzzPlan.properties(FILE_POOL, ConsoleConfigs.describe(sling.baseUrl(), consolePool))
                .stream().map(p -> new Property(FILE_POOL, p.name(), p.kind(),
                        p.name().equals("name") ? List.of("slingvt-fuzz-file") : p.good(), p.ours())).toList();
        ConsoleConfigs.delete(sling.baseUrl(), consolePool);
        Map<String, List<Property>> consolePids = new LinkedHashMap<>();
        for (String pid : SINGLETONS) {
            List<Property> properties = ConfigFuzzPlan.properties(pid, ConsoleConfigs.describe(sling.baseUrl(), pid));
            assertThat(properties).as("metatype properties of %s", pid).isNotEmpty();
            consolePids.put(pid, properties);
        }
        Map<String, List<Property>> filePids = new LinkedHashMap<>(consolePids);
        filePids.put(FILE_POOL, poolProperties);
        String baseline = SettingsFingerprint.of(sling);
        Set<String> tried = new HashSet<>();
        int checked = 0;

        for (int round = 0; round < ConfigFuzzPlan.CONSOLE_ROUNDS; round++) {
            int mark = sling.errorLogLines().size();
            List<Case> cases = new ArrayList<>();
            for (Map.Entry<String, List<Property>> pid : consolePids.entrySet()) {
                cases.addAll(applyThroughConsole(pid.getKey(), pid.getValue(), round));
            }
            cases.addAll(writeFile(FILE_POOL, poolProperties, round, ConfigFuzzPlan::consoleValue));
            checked += assertRefused("console round " + round, cases, mark, baseline);
            if (ConfigFuzzPlan.CONSOLE_ROUNDS_ACROSS_RESTART.contains(round)) {
                mark = restart();
                checked += assertRefused("console round " + round + " after restart", cases, mark, baseline);
            }
            consolePids.forEach((pid, properties) -> ConsoleConfigs.apply(sling.baseUrl(), pid, goodValues(properties)));
            // Overwritten, not deleted: the installer may miss a file deleted and written again between two scans.
            writeFile(FILE_POOL, poolProperties, round, (p, r) -> null);
            RefusalChecks.awaitNoConfigErrors(sling);
            cases.forEach(c -> tried.add(c.property().pid() + " " + c.property().name() + "=" + c.shown()));
        }
        for (int round = 0; round < ConfigFuzzPlan.FILE_ROUNDS; round++) {
            int mark = sling.errorLogLines().size();
            List<Case> cases = new ArrayList<>();
            for (Map.Entry<String, List<Property>> pid : filePids.entrySet()) {
                cases.addAll(writeFile(pid.getKey(), pid.getValue(), round, ConfigFuzzPlan::fileValue));
            }
            checked += assertRefused("file round " + round, cases, mark, baseline);
            mark = restart();
            checked += assertRefused("file round " + round + " after restart", cases, mark, baseline);
            for (Map.Entry<String, List<Property>> pid : filePids.entrySet()) {
                writeFile(pid.getKey(), pid.getValue(), round, (p, r) -> null);
            }
            RefusalChecks.awaitNoConfigErrors(sling);
            cases.forEach(c -> tried.add(c.property().pid() + " " + c.property().name() + "=" + c.shown()));
        }

        assertThat(SettingsFingerprint.of(sling)).isEqualTo(baseline);
        // The report the issue asks for: how many property x value cases, live and across a restart.
        LOG.info("Config fuzz: {} distinct property x value cases over {} properties of {} PIDs, each applied live, "
                + "each stored form across a restart ({} refusals checked)", tried.size(),
                filePids.values().stream().flatMap(List::stream).filter(Property::ours).count(),
                filePids.size(), checked);
        System.out.printf("Config fuzz: %d property x value cases live, stored forms across a restart: %d refusals "
                + "checked%n", tried.size(), checked);
        assertThat(tried).hasSizeGreaterThan(100);
    }

    private List<Case> applyThroughConsole(String pid, List<Property> properties, int round) {
        Map<String, List<String>> values = goodValues(properties);
        Map<String, JsonNode> bad = new LinkedHashMap<>();
        for (Property p : properties) {
            JsonNode value = ConfigFuzzPlan.consoleValue(p, round);
            if (value != null) {
                bad.put(p.name(), value);
                List<String> texts = new ArrayList<>();
                if (value.isArray()) {
                    value.forEach(v -> texts.add(v.asText()));
                } else {
                    texts.add(value.asText());
                }
                values.put(p.name(), texts);
            }
        }
        ConsoleConfigs.apply(sling.baseUrl(), pid, values);
        JsonNode stored = ConsoleConfigs.describe(sling.baseUrl(), pid);
        return properties.stream().filter(p -> bad.containsKey(p.name()))
                .map(p -> new Case(p, bad.get(p.name()), ConsoleConfigs.stored(stored, p.name()))).toList();
    }

    private List<Case> writeFile(String pid, List<Property> properties, int round,
            BiFunction<Property, Integer, JsonNode> values) throws IOException {
        Map<String, JsonNode> bad = new LinkedHashMap<>();
        for (Property p : properties) {
            JsonNode value = values.apply(p, round);
            if (value != null) {
                bad.put(p.name(), value);
            }
        }
        Files.writeString(configFile(pid), ConfigFuzzPlan.fileContent(properties, bad), StandardCharsets.UTF_8);
        return properties.stream().filter(p -> bad.containsKey(p.name()))
                .map(p -> new Case(p, bad.get(p.name()), ConfigFuzzPlan.shown(bad.get(p.name())))).toList();
    }

    private int assertRefused(String when, List<Case> cases, int mark, String baseline) throws Exception {
        RefusalChecks.awaitErrors(sling, when, cases, mark);
        RefusalChecks.assertStillServing(sling, when, cases);
        assertThat(SettingsFingerprint.of(sling)).as("%s: settings in force and demo content unchanged", when)
                .isEqualTo(baseline);
        return cases.size();
    }

    private int restart() {
        return restart(builder());
    }

    private static SlingInstanceBuilder builder() {
        // The installer folder is scanned every 300 ms instead of 5 s, for the file channel. No write-back of console
        // changes into that folder: the installer then races the test's own writes to the same files and misses
        // some (seen: a file written while a write-back was pending was never installed). Config Admin keeps the
        // console's values across the restart by itself.
        return SlingInstance.builder("config-fuzz")
                .frameworkProperty("sling.fileinstall.interval", "300")
                .frameworkProperty("sling.fileinstall.writeback", "false")
                .functionalChecksOnly();
    }

    private Path configFile(String pid) {
        return sling.installDir().resolve(pid + ".cfg.json");
    }

    private static Map<String, List<String>> goodValues(List<Property> properties) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        properties.forEach(p -> values.put(p.name(), new ArrayList<>(p.good())));
        return values;
    }

}
