package io.github.slingvt.observability.internal.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;

import io.github.slingvt.observability.internal.metrics.MetricNames;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import org.junit.jupiter.api.Test;

/**
 * The exposition of Dropwizard registries as the endpoint writes it, on the Dropwizard version Sling ships (3.2,
 * the test class path's): names, the registry label, Sling VT's kind and pool labels, merged families.
 */
class RegistriesCollectorTest {

    @Test
    void everyRegistryIsLabelledAndSlingVtsVaryingPartsAreLabels() throws Exception {
        MetricRegistry slingvt = new MetricRegistry();
        slingvt.timer(MetricNames.REQUESTS_VIRTUAL).update(40, TimeUnit.MILLISECONDS);
        slingvt.timer(MetricNames.REQUESTS_VIRTUAL).update(40, TimeUnit.MILLISECONDS);
        slingvt.timer(MetricNames.REQUESTS_PLATFORM).update(5, TimeUnit.MILLISECONDS);
        slingvt.meter(MetricNames.ADMITTED).mark(3);
        slingvt.register(MetricNames.IN_FLIGHT, (Gauge<Long>) () -> 7L);
        slingvt.register("slingvt.pools.default.active", (Gauge<Long>) () -> 2L);
        slingvt.register("slingvt.pools.oak_io.active", (Gauge<Long>) () -> 1L);
        MetricRegistry sling = new MetricRegistry();
        sling.counter("sling.requests").inc(5);
        MetricRegistry oak = new MetricRegistry();
        oak.counter("sling.requests").inc(2);

        RegistriesCollector collector = new RegistriesCollector();
        collector.add(slingvt, MetricNames.REGISTRY);
        collector.add(sling, "sling");
        collector.add(oak, "oak");
        String text = expose(collector);

        assertThat(text)
                .contains("slingvt_http_requests{registry=\"slingvt\",kind=\"virtual\",quantile=\"0.5\",} 0.04\n")
                .contains("slingvt_http_requests_count{registry=\"slingvt\",kind=\"virtual\",} 2.0\n")
                .contains("slingvt_http_requests_count{registry=\"slingvt\",kind=\"platform\",} 1.0\n")
                .contains("slingvt_http_admitted_total{registry=\"slingvt\",} 3.0\n")
                .contains("slingvt_http_inFlight{registry=\"slingvt\",} 7.0\n")
                .contains("slingvt_pools_active{registry=\"slingvt\",pool=\"default\",} 2.0\n")
                .contains("slingvt_pools_active{registry=\"slingvt\",pool=\"oak_io\",} 1.0\n")
                .contains("sling_requests{registry=\"sling\",} 5.0\n")
                .contains("sling_requests{registry=\"oak\",} 2.0\n");
        assertThat(count(text, "# TYPE slingvt_http_requests summary")).as("one family for both kinds").isEqualTo(1);
        assertThat(count(text, "# TYPE sling_requests ")).as("one family across registries").isEqualTo(1);
        assertThat(count(text, "# TYPE slingvt_pools_active ")).isEqualTo(1);

        collector.remove(oak);
        assertThat(expose(collector)).doesNotContain("registry=\"oak\"").contains("registry=\"sling\"");
    }

    private static String expose(RegistriesCollector collector) throws Exception {
        CollectorRegistry registry = new CollectorRegistry(true);
        registry.register(collector);
        StringWriter out = new StringWriter();
        TextFormat.write004(out, registry.metricFamilySamples());
        return out.toString();
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
