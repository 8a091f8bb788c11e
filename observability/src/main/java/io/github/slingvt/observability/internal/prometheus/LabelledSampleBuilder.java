package io.github.slingvt.observability.internal.prometheus;

import java.util.ArrayList;
import java.util.List;

import io.github.slingvt.observability.internal.metrics.MetricNames;
import io.prometheus.client.Collector;
import io.prometheus.client.Collector.MetricFamilySamples.Sample;
import io.prometheus.client.dropwizard.samplebuilder.SampleBuilder;

/**
 * Names a Dropwizard metric the way the Prometheus client's default does (invalid characters become {@code _}) and
 * adds the label {@code registry}. In Sling VT's own registry the varying part of a name becomes a label, so that one
 * query covers them all: {@code slingvt.http.requests.virtual} is {@code slingvt_http_requests{kind="virtual"}},
 * {@code slingvt.pools.<pool>.active} is {@code slingvt_pools_active{pool="<pool>"}}.
 */
final class LabelledSampleBuilder implements SampleBuilder {

    static final String REGISTRY_LABEL = "registry";

    private final String registry;

    LabelledSampleBuilder(String registry) {
        this.registry = registry;
    }

    @Override
    public Sample createSample(String dropwizardName, String nameSuffix, List<String> additionalLabelNames,
            List<String> additionalLabelValues, double value) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        names.add(REGISTRY_LABEL);
        values.add(registry);
        String base = dropwizardName;
        if (MetricNames.REGISTRY.equals(registry)) {
            if (dropwizardName.startsWith(MetricNames.REQUESTS)) {
                base = MetricNames.REQUESTS.substring(0, MetricNames.REQUESTS.length() - 1);
                names.add("kind");
                values.add(dropwizardName.substring(MetricNames.REQUESTS.length()));
            } else if (dropwizardName.startsWith(MetricNames.POOLS)) {
                String rest = dropwizardName.substring(MetricNames.POOLS.length());
                int dot = rest.lastIndexOf('.');
                if (dot > 0) {
                    base = MetricNames.POOLS + rest.substring(dot + 1);
                    names.add("pool");
                    values.add(rest.substring(0, dot));
                }
            }
        }
        names.addAll(additionalLabelNames);
        values.addAll(additionalLabelValues);
        return new Sample(Collector.sanitizeMetricName(base) + (nameSuffix == null ? "" : nameSuffix), names, values,
                value);
    }
}
