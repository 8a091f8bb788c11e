package io.github.slingvt.demo.internal.content;

import io.github.slingvt.demo.internal.Fixtures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SlingContextExtension.class)
public class ScratchSweeperTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.JCR_MOCK);

    @Test
    void removesTheNodesOfEarlierRunsOnlyInBatches() throws Exception {
        Fixtures.repoinit(context);
        var builder = context.build().resource(DemoContent.SCRATCH);
        for (int i = 0; i < ScratchSweeper.BATCH + 5; i++) {
            builder.resource(DemoContent.SCRATCH + "/old" + i, Map.of("jcr:primaryType", "nt:unstructured",
                    DemoContent.PN_RUN, "an-earlier-run"));
        }
        builder.resource(DemoContent.SCRATCH + "/unmarked", "jcr:primaryType", "nt:unstructured")
                .resource(DemoContent.SCRATCH + "/mine", "jcr:primaryType", "nt:unstructured",
                        DemoContent.PN_RUN, DemoContent.RUN)
                .commit();

        int removed = ScratchSweeper.sweep(context.resourceResolver(), DemoContent.RUN);

        assertThat(removed).isEqualTo(ScratchSweeper.BATCH + 6);
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).containsExactly("mine");
    }

    @Test
    void withoutTheScratchFolderThereIsNothingToDo() throws Exception {
        assertThat(ScratchSweeper.sweep(context.resourceResolver(), DemoContent.RUN)).isZero();
    }
}
