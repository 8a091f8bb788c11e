package io.github.slingvt.demo.internal.content;

import io.github.slingvt.demo.internal.Fixtures;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.sling.api.resource.ModifiableValueMap;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.slingvt.demo.internal.content.DemoContent.BinarySpec;
import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

@ExtendWith(SlingContextExtension.class)
public class TreeSeederTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);

    @Test
    void seedsTreeBinariesAndMarker() throws Exception {
        SeedProgress progress = Fixtures.seed(context, new TreeShape(3, 4));
        ResourceResolver resolver = context.resourceResolver();
        assertThat(progress.state()).isEqualTo(SeedProgress.State.COMPLETE);
        assertThat(progress.created()).isEqualTo(12);
        assertThat(TreeShape.readMarker(resolver)).isEqualTo(new TreeShape(3, 4));
        assertThat(resolver.getResource(DemoContent.ROOT).getValueMap().get(DemoContent.PN_NODES, 0L)).isEqualTo(12);
        Resource leaf = resolver.getResource(DemoContent.TREE + "/f2/n3");
        assertThat(leaf.getValueMap().get("index", 0L)).isEqualTo(11);
        assertThat(leaf.getValueMap().get("tags", String[].class)).contains("vt-demo");
        assertThat(resolver.getResource(DemoContent.TREE + "/f3")).isNull();
    }

    @Test
    void binariesHaveTheirSizeAndDeterministicContent() throws Exception {
        Fixtures.seed(context, new TreeShape(1, 1));
        for (BinarySpec spec : DemoContent.BINARY_SPECS) {
            Resource file = context.resourceResolver().getResource(spec.path());
            assertThat(file.getValueMap().get("jcr:primaryType", String.class)).isEqualTo("nt:file");
            Resource content = file.getChild("jcr:content");
            assertThat(content.getValueMap().get("jcr:primaryType", String.class)).isEqualTo("nt:resource");
            try (InputStream stored = content.getValueMap().get("jcr:data", InputStream.class);
                    InputStream expected = new PseudoRandomInputStream(spec.name(), spec.size())) {
                assertThat(stored).hasSameContentAs(expected);
            }
        }
    }

    @Test
    void secondRunCreatesNothing() throws Exception {
        Fixtures.seed(context, new TreeShape(3, 4));
        SeedProgress again = Fixtures.seed(context, new TreeShape(3, 4));
        assertThat(again.state()).isEqualTo(SeedProgress.State.COMPLETE);
        assertThat(again.created()).isZero();
    }

    @Test
    void interruptedSeedingIsCompletedOnTheNextRun() throws Exception {
        Fixtures.repoinit(context);
        AtomicInteger checks = new AtomicInteger();
        SeedProgress first = new SeedProgress(SeedProgress.State.PENDING);
        // Stops after the binaries and the first folder.
        boolean complete = new TreeSeeder(context.resourceResolver(), first, () -> checks.incrementAndGet() > 6)
                .seed(new TreeShape(3, 4), 2);
        assertThat(complete).isFalse();
        assertThat(TreeShape.readMarker(context.resourceResolver())).isNull();
        long createdBefore = first.created();
        assertThat(createdBefore).isBetween(1L, 11L);

        SeedProgress second = new SeedProgress(SeedProgress.State.PENDING);
        assertThat(new TreeSeeder(context.resourceResolver(), second, () -> false).seed(new TreeShape(3, 4), 2))
                .isTrue();
        assertThat(second.created()).isEqualTo(12 - createdBefore);
        assertThat(TreeShape.readMarker(context.resourceResolver())).isEqualTo(new TreeShape(3, 4));
    }

    @Test
    void missingLeavesAreRecreated() throws Exception {
        Fixtures.seed(context, new TreeShape(3, 4));
        ResourceResolver resolver = context.resourceResolver();
        resolver.delete(resolver.getResource(DemoContent.TREE + "/f1/n2"));
        resolver.getResource(DemoContent.TREE + "/f1").adaptTo(ModifiableValueMap.class).remove(DemoContent.PN_NODES);
        resolver.getResource(DemoContent.ROOT).adaptTo(ModifiableValueMap.class).put(DemoContent.PN_SEEDED, false);
        resolver.commit();
        SeedProgress progress = Fixtures.seed(context, new TreeShape(3, 4));
        assertThat(progress.created()).isEqualTo(1);
        assertThat(resolver.getResource(DemoContent.TREE + "/f1/n2")).isNotNull();
    }

    @Test
    void smallerSizePrunesTheRest() throws Exception {
        Fixtures.seed(context, new TreeShape(3, 4));
        SeedProgress progress = Fixtures.seed(context, new TreeShape(2, 2));
        ResourceResolver resolver = context.resourceResolver();
        assertThat(TreeShape.readMarker(resolver)).isEqualTo(new TreeShape(2, 2));
        assertThat(resolver.getResource(DemoContent.TREE + "/f2")).isNull();
        assertThat(resolver.getResource(DemoContent.TREE + "/f1/n2")).isNull();
        assertThat(resolver.getResource(DemoContent.TREE + "/f1/n1")).isNotNull();
        assertThat(progress.toJson().get("nodesRemoved")).isEqualTo(1L + 2 + 2);
    }

    @Test
    void largerSizeAddsTheDifference() throws Exception {
        Fixtures.seed(context, new TreeShape(2, 2));
        SeedProgress progress = Fixtures.seed(context, new TreeShape(3, 3));
        assertThat(progress.created()).isEqualTo(9 - 4);
        assertThat(TreeShape.readMarker(context.resourceResolver())).isEqualTo(new TreeShape(3, 3));
    }

    @Test
    void leafPathsWrapAroundTheTree() {
        TreeShape shape = new TreeShape(3, 4);
        assertThat(shape.leafPath(0)).isEqualTo(DemoContent.TREE + "/f0/n0");
        assertThat(shape.leafPath(11)).isEqualTo(DemoContent.TREE + "/f2/n3");
        assertThat(shape.leafPath(12)).isEqualTo(DemoContent.TREE + "/f0/n0");
    }

    @Test
    void theSmallestBinaryThatHoldsTheLengthIsChosen() {
        assertThat(DemoContent.binaryFor(1).name()).isEqualTo("1k");
        assertThat(DemoContent.binaryFor(1024).name()).isEqualTo("1k");
        assertThat(DemoContent.binaryFor(1025).name()).isEqualTo("100k");
        assertThat(DemoContent.binaryFor(1024 * 1024).name()).isEqualTo("1m");
        assertThat(DemoContent.binaryFor(100L * 1024 * 1024).name()).isEqualTo("10m");
    }
}
