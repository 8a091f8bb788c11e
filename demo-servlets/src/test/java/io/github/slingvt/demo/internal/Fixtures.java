package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.content.DemoContent;
import io.github.slingvt.demo.internal.content.SeedProgress;
import io.github.slingvt.demo.internal.content.TreeSeeder;
import io.github.slingvt.demo.internal.http.Json;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.json.JsonObject;

import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;

import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/** Demo content and JSON helpers shared by the tests. */
public final class Fixtures {

    static final TreeShape SMALL_TREE = new TreeShape(3, 4);

    /** A repository without a counting data source (segment-tar, the JCR mock): no round trips. */
    static final io.github.slingvt.jdbc.RoundTrips NO_ROUND_TRIPS = new io.github.slingvt.jdbc.RoundTrips() {
        @Override
        public long onThisThread() {
            return 0;
        }

        @Override
        public long total() {
            return 0;
        }
    };

    private Fixtures() {
    }

    /** What repoinit creates in a running instance. */
    public static void repoinit(SlingContext context) {
        context.build().resource(DemoContent.ROOT, "jcr:primaryType", "sling:Folder")
                .resource(DemoContent.SCRATCH, "jcr:primaryType", "sling:Folder")
                .commit();
    }

    /** repoinit, then the seeder's work, synchronously. */
    public static SeedProgress seed(SlingContext context, TreeShape shape) throws PersistenceException {
        repoinit(context);
        SeedProgress progress = new SeedProgress(SeedProgress.State.PENDING);
        new TreeSeeder(context.resourceResolver(), progress, () -> false).seed(shape, 5);
        return progress;
    }

    public static List<String> scratchChildren(ResourceResolver resolver) {
        List<String> names = new ArrayList<>();
        resolver.refresh();
        Resource scratch = resolver.getResource(DemoContent.SCRATCH);
        if (scratch != null) {
            scratch.getChildren().forEach(child -> names.add(child.getName()));
        }
        return names;
    }

    public static JsonObject json(String body) {
        try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    static Map<String, Object> params(String... namesAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            map.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return map;
    }
}
