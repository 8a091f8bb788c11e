package io.github.slingvt.it.paxexam.threads;

import static org.ops4j.pax.exam.CoreOptions.bootDelegationPackages;
import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.ops4j.pax.exam.Option;

/**
 * Provisions the assembled Sling VT feature ({@code feature-model/target/slingfeature-tmp/feature-sling-vt.json},
 * artifacts from {@code feature-model/target/artifacts}) into pax-exam, the way the Feature Launcher runs it: every
 * bundle at its start-order as start level, the framework properties, and the configurations in Config Admin before
 * any bundle of start-order > 1 starts (through a generated bundle at start level 2, see
 * {@link FeatureConfigurationsActivator}). Runs in the failsafe JVM only.
 */
final class FeatureProvisioning {

    /** Start level of the configuration bundle: after the boot bundles (start-order 1), before all others. */
    static final int CONFIGURATIONS_START_LEVEL = 2;

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");
    /** Set by AbstractPaxExamTestSupport#httpConfiguration() (127.0.0.1, free port). */
    private static final Set<String> HTTP_FRAMEWORK_PROPERTIES =
            Set.of("org.osgi.service.http.port", "org.apache.felix.http.host");
    private static final Set<String> TYPES = Set.of("String", "Integer", "Long", "Boolean", "Double", "Float");

    private final Path featureDir;
    private final Map<String, String> variables;
    private final Set<String> excludedArtifactIds;
    private final Map<String, Dictionary<String, Object>> extraConfigurations;
    private final JsonNode feature;

    /**
     * {@code featureDir} is feature-model/target; artifacts whose artifactId is in {@code excluded} are left out;
     * {@code extra} configurations are added to (or replace) the feature's, by PID.
     */
    FeatureProvisioning(Path featureDir, Map<String, String> variables, Set<String> excluded,
            Map<String, Dictionary<String, Object>> extra) {
        this.featureDir = featureDir;
        this.variables = variables;
        this.excludedArtifactIds = excluded;
        this.extraConfigurations = extra;
        final Path file = featureDir.resolve("slingfeature-tmp/feature-sling-vt.json");
        try {
            this.feature = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the assembled feature " + file + "; build feature-model", e);
        }
    }

    /** The highest start level a feature bundle gets. */
    int maxStartLevel() {
        int max = CONFIGURATIONS_START_LEVEL;
        for (JsonNode b : feature.path("bundles")) {
            max = Math.max(max, b.path("start-order").asInt(1));
        }
        return max;
    }

    /** Bundles, framework properties and the configuration bundle (written to {@code workDir}). */
    List<Option> options(Path workDir) {
        final List<Option> options = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = feature.path("framework-properties").fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> property = it.next();
            final String value = substitute(property.getValue().asText());
            if (property.getKey().equals("org.osgi.framework.bootdelegation")) {
                options.add(bootDelegationPackages(value.split(",")));
            } else if (!HTTP_FRAMEWORK_PROPERTIES.contains(property.getKey())) {
                options.add(frameworkProperty(property.getKey()).value(value));
            }
        }
        for (JsonNode b : feature.path("bundles")) {
            final String[] id = b.path("id").asText().split(":");
            if (excludedArtifactIds.contains(id[1])) {
                continue;
            }
            final Path jar = featureDir.resolve("artifacts").resolve(id[0].replace('.', '/')).resolve(id[1])
                    .resolve(id[2]).resolve(id[1] + "-" + id[2] + ".jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("Feature bundle " + b.path("id").asText() + " is not at " + jar);
            }
            options.add(bundle(jar.toUri().toString()).startLevel(b.path("start-order").asInt(1))
                    .start(!isFragment(jar)));
        }
        options.add(bundle(configurationBundle(workDir).toUri().toString())
                .startLevel(CONFIGURATIONS_START_LEVEL).start(true));
        return options;
    }

    private static boolean isFragment(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getManifest().getMainAttributes().getValue("Fragment-Host") != null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The feature's configurations, with variables replaced and cm.json type hints ({@code key:Integer}) applied. */
    Map<String, Dictionary<String, Object>> configurations() {
        final Map<String, Dictionary<String, Object>> result = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = feature.path("configurations").fields(); it.hasNext();) {
            final Map.Entry<String, JsonNode> configuration = it.next();
            final Dictionary<String, Object> properties = new Hashtable<>();
            for (Iterator<Map.Entry<String, JsonNode>> p = configuration.getValue().fields(); p.hasNext();) {
                final Map.Entry<String, JsonNode> property = p.next();
                if (property.getKey().startsWith(":configurator:")) {
                    continue;
                }
                final String[] keyAndType = property.getKey().split(":", 2);
                properties.put(keyAndType[0], value(property.getValue(), keyAndType.length == 2 ? keyAndType[1] : null,
                        configuration.getKey() + "/" + property.getKey()));
            }
            result.put(configuration.getKey(), properties);
        }
        result.putAll(extraConfigurations);
        return result;
    }

    private Object value(JsonNode node, String type, String where) {
        if (type != null && type.endsWith("[]")) {
            final String element = type.substring(0, type.length() - 2);
            final Object array = Array.newInstance(javaType(element, where), node.size());
            for (int i = 0; i < node.size(); i++) {
                Array.set(array, i, value(node.get(i), element, where));
            }
            return array;
        }
        if (node.isArray()) {
            return value(node, (node.size() > 0 && node.get(0).isIntegralNumber() ? "Long" : "String") + "[]", where);
        }
        final String text = substitute(node.asText());
        final String effective = type != null ? type : node.isBoolean() ? "Boolean"
                : node.isIntegralNumber() ? "Long" : node.isNumber() ? "Double" : "String";
        return switch (effective) {
            case "String" -> text;
            case "Integer" -> Integer.valueOf(text);
            case "Long" -> Long.valueOf(text);
            case "Boolean" -> Boolean.valueOf(text);
            case "Double" -> Double.valueOf(text);
            case "Float" -> Float.valueOf(text);
            default -> throw new IllegalStateException("Unsupported type hint '" + type + "' at " + where);
        };
    }

    private static Class<?> javaType(String type, String where) {
        if (!TYPES.contains(type)) {
            throw new IllegalStateException("Unsupported type hint '" + type + "[]' at " + where);
        }
        try {
            return Class.forName("java.lang." + type);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private String substitute(String text) {
        final Matcher m = VARIABLE.matcher(text);
        final StringBuilder sb = new StringBuilder();
        while (m.find()) {
            final String value = variables.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("No value for variable ${" + m.group(1) + "} in '" + text + "'");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        return m.appendTail(sb).toString();
    }

    /** A bundle with {@link FeatureConfigurationsActivator} and the serialized configurations. */
    private Path configurationBundle(Path workDir) {
        final Manifest manifest = new Manifest();
        final Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "io.github.slingvt.it.feature-configurations");
        main.putValue("Bundle-Version", "0.0.0");
        main.putValue("Bundle-Activator", FeatureConfigurationsActivator.class.getName());
        main.putValue("Import-Package", "org.osgi.framework,org.osgi.service.cm,org.osgi.util.tracker");
        final String classEntry = FeatureConfigurationsActivator.class.getName().replace('.', '/') + ".class";
        try {
            Files.createDirectories(workDir);
            final Path jar = workDir.resolve("feature-configurations.jar");
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest);
                    InputStream classBytes = FeatureProvisioning.class.getClassLoader().getResourceAsStream(classEntry)) {
                if (classBytes == null) {
                    throw new IllegalStateException(classEntry + " is not on the test classpath");
                }
                jarOut.putNextEntry(new JarEntry(classEntry));
                classBytes.transferTo(jarOut);
                jarOut.closeEntry();
                jarOut.putNextEntry(new JarEntry(FeatureConfigurationsActivator.ENTRY));
                final ObjectOutputStream objects = new ObjectOutputStream(jarOut);
                objects.writeObject(configurations());
                objects.flush();
                jarOut.closeEntry();
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
