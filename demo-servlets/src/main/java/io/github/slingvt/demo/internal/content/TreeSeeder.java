package io.github.slingvt.demo.internal.content;

import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.apache.sling.api.resource.ModifiableValueMap;
import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ValueMap;

import io.github.slingvt.demo.internal.content.DemoContent.BinarySpec;
import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/**
 * Writes the demo content through one resolver, resumably: every save leaves a state that the next run can
 * continue from, and the "seeded" marker on the root is only set when the whole tree has the requested shape.
 */
public final class TreeSeeder {

    private static final String FOLDER_TYPE = "sling:Folder";
    private static final String TEXT = "Sling Virtual Threads demo content: a node read by the work servlet. ";

    private final ResourceResolver resolver;
    private final SeedProgress progress;
    private final BooleanSupplier stopping;

    public TreeSeeder(ResourceResolver resolver, SeedProgress progress, BooleanSupplier stopping) {
        this.resolver = resolver;
        this.progress = progress;
        this.stopping = stopping;
    }

    /** @return true when the content is complete, false when stopped before */
    public boolean seed(TreeShape shape, int batchSize) throws PersistenceException {
        Resource root = resolver.getResource(DemoContent.ROOT);
        if (root == null) {
            throw new PersistenceException(DemoContent.ROOT + " does not exist or is not readable by the seeder "
                    + "service user (repoinit of the demo feature)");
        }
        progress.restart();
        progress.state(SeedProgress.State.BINARIES);
        seedBinaries(root);
        if (stopping.getAsBoolean()) {
            return false;
        }
        progress.state(SeedProgress.State.TREE);
        return seedTree(root, shape, batchSize);
    }

    /** One save per binary, with its nt:file and nt:resource together, so a binary is either whole or absent. */
    void seedBinaries(Resource root) throws PersistenceException {
        Resource folder = child(root, "binaries");
        for (BinarySpec spec : DemoContent.BINARY_SPECS) {
            if (stopping.getAsBoolean()) {
                return;
            }
            if (folder.getChild(spec.name() + "/jcr:content") != null) {
                continue;
            }
            Resource file = resolver.create(folder, spec.name(), Map.of("jcr:primaryType", "nt:file"));
            resolver.create(file, "jcr:content", Map.of(
                    "jcr:primaryType", "nt:resource",
                    "jcr:mimeType", "application/octet-stream",
                    "jcr:data", new PseudoRandomInputStream(spec.name(), spec.size())));
            resolver.commit();
        }
    }

    boolean seedTree(Resource root, TreeShape shape, int batchSize) throws PersistenceException {
        ValueMap marker = root.getValueMap();
        if (marker.get(DemoContent.PN_SEEDED, false)
                && marker.get(DemoContent.PN_FOLDERS, 0L) == shape.folders()
                && marker.get(DemoContent.PN_NODES_PER_FOLDER, 0L) == shape.nodesPerFolder()) {
            progress.present(shape.nodes());
            progress.complete();
            return true;
        }
        ModifiableValueMap rootProperties = writable(root);
        // Readers stop using the tree while it changes shape.
        rootProperties.put(DemoContent.PN_SEEDED, false);
        resolver.commit();

        Resource tree = child(root, "tree");
        int pending = 0;
        for (long f = 0; f < shape.folders(); f++) {
            if (stopping.getAsBoolean()) {
                resolver.commit();
                return false;
            }
            Resource folder = child(tree, DemoContent.FOLDER_PREFIX + f);
            if (folder.getValueMap().get(DemoContent.PN_NODES, -1L) == shape.nodesPerFolder()) {
                progress.present(shape.nodesPerFolder());
                continue;
            }
            for (long n = 0; n < shape.nodesPerFolder(); n++) {
                if (folder.getChild(DemoContent.LEAF_PREFIX + n) != null) {
                    progress.present(1);
                    continue;
                }
                resolver.create(folder, DemoContent.LEAF_PREFIX + n, leaf(f * shape.nodesPerFolder() + n, f));
                progress.created(1);
                if (++pending >= batchSize) {
                    resolver.commit();
                    pending = 0;
                }
            }
            prune(folder, DemoContent.LEAF_PREFIX, shape.nodesPerFolder());
            // Set last, so that a folder marked complete really is.
            writable(folder).put(DemoContent.PN_NODES, shape.nodesPerFolder());
        }
        prune(tree, DemoContent.FOLDER_PREFIX, shape.folders());
        rootProperties = writable(resolver.getResource(DemoContent.ROOT));
        rootProperties.put(DemoContent.PN_FOLDERS, shape.folders());
        rootProperties.put(DemoContent.PN_NODES_PER_FOLDER, shape.nodesPerFolder());
        rootProperties.put(DemoContent.PN_NODES, shape.nodes());
        rootProperties.put(DemoContent.PN_SEEDED_AT, Calendar.getInstance());
        rootProperties.put(DemoContent.PN_SEEDED, true);
        resolver.commit();
        progress.complete();
        return true;
    }

    private static Map<String, Object> leaf(long index, long folder) {
        return Map.of(
                "jcr:primaryType", "nt:unstructured",
                "title", "Demo node " + index,
                "index", index,
                "folder", folder,
                "text", TEXT + index,
                "tags", new String[] {"vt-demo", "group-" + index % 10, "folder-" + folder},
                "weight", index % 1000 / 10.0,
                "published", index % 2 == 0);
    }

    /** Removes children named {@code prefix + i} with i beyond the new size, left from a larger earlier tree. */
    private void prune(Resource parent, String prefix, long size) throws PersistenceException {
        List<Resource> extra = new ArrayList<>();
        for (Resource child : parent.getChildren()) {
            String name = child.getName();
            if (name.startsWith(prefix) && indexOf(name, prefix) >= size) {
                extra.add(child);
            }
        }
        for (Resource child : extra) {
            resolver.delete(child);
            progress.removed(1);
        }
    }

    private static long indexOf(String name, String prefix) {
        try {
            return Long.parseLong(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            // Not a node of ours: keep it.
            return -1;
        }
    }

    private Resource child(Resource parent, String name) throws PersistenceException {
        Resource child = parent.getChild(name);
        return child != null ? child : resolver.create(parent, name, Map.of("jcr:primaryType", FOLDER_TYPE));
    }

    private static ModifiableValueMap writable(Resource resource) throws PersistenceException {
        ModifiableValueMap properties = resource == null ? null : resource.adaptTo(ModifiableValueMap.class);
        if (properties == null) {
            throw new PersistenceException(DemoContent.ROOT + " is not writable by the seeder service user");
        }
        return properties;
    }
}
