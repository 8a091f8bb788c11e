package io.github.slingvt.demoapp.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import javax.inject.Inject;

import org.apache.sling.api.SlingHttpServletRequest;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.models.annotations.Model;
import org.apache.sling.models.annotations.injectorspecific.Self;

import io.github.slingvt.demoapp.DemoPage;

/**
 * The demo page's model, built once per rendering: it reads {@code reads} item nodes below the page's
 * {@code items} child through the request's resource resolver (the visitor's repository session), waits
 * {@code delay} milliseconds as a call to a downstream service would, and notes the thread it ran on. The request
 * is javax-typed because the HTL engine on the Maven mirror (1.4.22) adapts the javax request. {@link
 * DemoPageFilter} has refused bad parameters before HTL runs; called without it, a bad parameter fails the model.
 */
@SuppressWarnings("deprecation")
@Model(adaptables = SlingHttpServletRequest.class, adapters = DemoPage.class)
public final class DemoPageModel implements DemoPage {

    static final String ITEMS = "items";
    static final String PN_TITLE = "jcr:title";

    private final String title;
    private final int reads;
    private final List<String> items;
    private final long delay;
    private final String threadKind;
    private final String threadName;

    @Inject
    public DemoPageModel(@Self SlingHttpServletRequest request) {
        PageParameters parameters = PageParameters.parse(request::getParameter);
        Resource page = request.getResource();
        this.title = page.getValueMap().get(PN_TITLE, page.getName());
        this.items = readItems(request.getResourceResolver(), page.getPath() + "/" + ITEMS, parameters.reads());
        this.reads = parameters.reads();
        this.delay = parameters.delay();
        waitDownstream(delay);
        Thread thread = Thread.currentThread();
        this.threadKind = thread.isVirtual() ? "virtual" : "platform";
        this.threadName = thread.getName();
    }

    /**
     * Reads {@code count} items, going round the page's items (in their order) as often as needed; each read is
     * one child node and its title. Lists the first {@link DemoPage#MAX_LISTED} titles.
     */
    static List<String> readItems(ResourceResolver resolver, String itemsPath, int count) {
        List<String> listed = new ArrayList<>();
        if (count == 0) {
            return listed;
        }
        Resource itemsRoot = resolver.getResource(itemsPath);
        Iterator<Resource> items = itemsRoot == null ? null : itemsRoot.listChildren();
        if (items == null || !items.hasNext()) {
            throw new IllegalStateException(itemsPath + " has no items to read (is the demo application's initial "
                    + "content loaded, and readable by this user?)");
        }
        for (int i = 0; i < count; i++) {
            if (!items.hasNext()) {
                items = itemsRoot.listChildren();
            }
            Resource item = items.next();
            String itemTitle = item.getValueMap().get(PN_TITLE, String.class);
            if (itemTitle == null) {
                throw new IllegalStateException(item.getPath() + " has no " + PN_TITLE);
            }
            if (listed.size() < MAX_LISTED) {
                listed.add(itemTitle);
            }
        }
        return listed;
    }

    /** The downstream call: a blocking wait, as on a socket. An interrupt ends it early and stays set. */
    private static void waitDownstream(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String getTitle() {
        return title;
    }

    @Override
    public int getReads() {
        return reads;
    }

    @Override
    public List<String> getItems() {
        return List.copyOf(items);
    }

    @Override
    public long getDelay() {
        return delay;
    }

    @Override
    public String getThreadKind() {
        return threadKind;
    }

    @Override
    public String getThreadName() {
        return threadName;
    }
}
