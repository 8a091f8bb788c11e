package io.github.slingvt.observability.internal.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.codahale.metrics.MetricRegistry;

import io.prometheus.client.Collector;
import io.prometheus.client.dropwizard.DropwizardExports;

/**
 * The metric registries of the instance as one Prometheus collector. Registries come and go as bundles do. Families of
 * the same name (the same metric in two registries, or two of Sling VT's metrics that differ only by a label) are
 * merged into one, because a name may appear only once in an exposition.
 */
final class RegistriesCollector extends Collector implements Collector.Describable {

    private final Map<MetricRegistry, DropwizardExports> registries = new ConcurrentHashMap<>();

    void add(MetricRegistry registry, String name) {
        registries.put(registry, new DropwizardExports(registry, new LabelledSampleBuilder(name)));
    }

    void remove(MetricRegistry registry) {
        registries.remove(registry);
    }

    @Override
    public List<MetricFamilySamples> collect() {
        Map<String, MetricFamilySamples> merged = new LinkedHashMap<>();
        for (DropwizardExports exports : registries.values()) {
            for (MetricFamilySamples family : exports.collect()) {
                MetricFamilySamples known = merged.get(family.name);
                if (known == null) {
                    merged.put(family.name, family);
                } else if (known.type == family.type) {
                    List<MetricFamilySamples.Sample> samples = new ArrayList<>(known.samples);
                    samples.addAll(family.samples);
                    merged.put(family.name, new MetricFamilySamples(known.name, known.unit, known.type, known.help,
                            samples));
                }
                // The same name with another type cannot share a family: the first registry's stays.
            }
        }
        return new ArrayList<>(merged.values());
    }

    /** Nothing up front: the names change with the registries, so the collector registry must not check them. */
    @Override
    public List<MetricFamilySamples> describe() {
        return List.of();
    }
}
