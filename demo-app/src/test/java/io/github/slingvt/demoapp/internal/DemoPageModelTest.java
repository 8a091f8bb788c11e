package io.github.slingvt.demoapp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.slingvt.demoapp.DemoPage;

@ExtendWith(SlingContextExtension.class)
class DemoPageModelTest {

    private static final String PAGE = "/content/vt-demo/page";

    private final SlingContext context = new SlingContext(ResourceResolverType.RESOURCERESOLVER_MOCK);

    @BeforeEach
    void page() {
        context.addModelsForClasses(DemoPageModel.class);
        context.create().resource(PAGE, "jcr:title", "Demo", "sling:resourceType", DemoPageFilter.RESOURCE_TYPE);
        context.create().resource(PAGE + "/items");
        for (int i = 0; i < 3; i++) {
            context.create().resource(PAGE + "/items/item-" + i, "jcr:title", "Item " + i);
        }
        context.currentResource(PAGE);
    }

    @Test
    void theModelReadsTheItemsWaitsAndNotesItsThread() throws Exception {
        context.request().setParameterMap(Map.of("reads", "2", "delay", "30"));
        long start = System.nanoTime();
        DemoPage page = context.request().adaptTo(DemoPage.class);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(page).isNotNull();
        assertThat(page.getTitle()).isEqualTo("Demo");
        assertThat(page.getReads()).isEqualTo(2);
        assertThat(page.getItems()).containsExactly("Item 0", "Item 1");
        assertThat(page.getDelay()).isEqualTo(30);
        assertThat(tookMillis).as("the downstream wait").isGreaterThanOrEqualTo(30);
        assertThat(page.getThreadKind()).isEqualTo("platform");

        // The same model built on a virtual thread, as a request thread in virtual mode would.
        DemoPage[] onVirtual = new DemoPage[1];
        Thread.ofVirtual().start(() -> onVirtual[0] = new DemoPageModel(context.request())).join();
        assertThat(onVirtual[0].getThreadKind()).isEqualTo("virtual");
        assertThat(onVirtual[0].getItems()).containsExactly("Item 0", "Item 1");
    }

    @Test
    void readsGoRoundTheItemsAndListAtMostTen() {
        assertThat(DemoPageModel.readItems(context.resourceResolver(), PAGE + "/items", 25))
                .hasSize(DemoPage.MAX_LISTED)
                .containsExactly("Item 0", "Item 1", "Item 2", "Item 0", "Item 1", "Item 2", "Item 0", "Item 1",
                        "Item 2", "Item 0");
        assertThat(DemoPageModel.readItems(context.resourceResolver(), PAGE + "/items", 0)).isEmpty();
    }

    @Test
    void missingItemsFailWithWhatIsMissing() {
        assertThatThrownBy(() -> DemoPageModel.readItems(context.resourceResolver(), "/content/none/items", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/content/none/items has no items");
        context.create().resource("/content/broken/items/item-0");
        assertThatThrownBy(() -> DemoPageModel.readItems(context.resourceResolver(), "/content/broken/items", 1))
                .hasMessageContaining("/content/broken/items/item-0 has no jcr:title");
    }

    @Test
    void anInterruptEndsTheWaitAndStaysSet() throws Exception {
        context.request().setParameterMap(Map.of("delay", "10000"));
        boolean[] interrupted = new boolean[1];
        long[] took = new long[1];
        Thread thread = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            long start = System.nanoTime();
            new DemoPageModel(context.request());
            took[0] = (System.nanoTime() - start) / 1_000_000;
            interrupted[0] = Thread.currentThread().isInterrupted();
        });
        thread.join(5_000);
        assertThat(interrupted[0]).isTrue();
        assertThat(took[0]).isLessThan(5_000);
    }
}
