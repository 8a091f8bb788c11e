package io.github.slingvt.demo.internal.content;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.sling.api.resource.LoginException;
import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.serviceusermapping.ServiceUserMapped;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes, once at start, the scratch nodes that an earlier run left below {@link DemoContent#SCRATCH}: a request
 * removes its own node when it ends, but not when the JVM is killed while it writes. Only nodes of other runs
 * ({@link DemoContent#PN_RUN}) are removed, so a request of this run that is already writing keeps its node.
 */
@Component(service = {}, immediate = true)
public final class ScratchSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(ScratchSweeper.class);
    /** Nodes removed per save, so that a large leftover never builds one huge transient space. */
    static final int BATCH = 100;

    @Activate
    public ScratchSweeper(@Reference ResourceResolverFactory resolverFactory,
            @Reference(target = "(" + ServiceUserMapped.SUBSERVICENAME + "=" + DemoContent.SUBSERVICE_WRITER + ")")
                    ServiceUserMapped writerUser) {
        // In the background: the repository may be large, and activation must not wait for it.
        Thread.ofPlatform().name("vt-demo-scratch-sweep").daemon(true).start(() -> {
            try (ResourceResolver resolver = resolverFactory.getServiceResourceResolver(
                    Map.of(ResourceResolverFactory.SUBSERVICE, DemoContent.SUBSERVICE_WRITER))) {
                int removed = sweep(resolver, DemoContent.RUN);
                if (removed > 0) {
                    LOG.info("Removed {} scratch nodes left below {} by an earlier run", removed, DemoContent.SCRATCH);
                }
            } catch (LoginException | PersistenceException | RuntimeException e) {
                LOG.warn("Could not sweep {}: {}", DemoContent.SCRATCH, e.toString());
            }
        });
    }

    /** Removes the children of the scratch folder not written by {@code run}; answers how many. */
    static int sweep(ResourceResolver resolver, String run) throws PersistenceException {
        Resource scratch = resolver.getResource(DemoContent.SCRATCH);
        if (scratch == null) {
            return 0;
        }
        List<String> leftovers = new ArrayList<>();
        for (Resource child : scratch.getChildren()) {
            if (!run.equals(child.getValueMap().get(DemoContent.PN_RUN, String.class))) {
                leftovers.add(child.getPath());
            }
        }
        int removed = 0;
        for (String path : leftovers) {
            Resource node = resolver.getResource(path);
            if (node != null) {
                resolver.delete(node);
                if (++removed % BATCH == 0) {
                    resolver.commit();
                }
            }
        }
        resolver.commit();
        return removed;
    }
}
