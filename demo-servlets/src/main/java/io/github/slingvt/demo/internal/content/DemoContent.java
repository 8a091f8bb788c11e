package io.github.slingvt.demo.internal.content;

import java.util.List;

import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ValueMap;

/**
 * Where the demo content lives and how it is laid out. The seeder writes it, the servlets read it; the marker
 * properties on the root let the servlets use the tree only once it is complete.
 */
public final class DemoContent {

    public static final String ROOT = "/content/vt-demo";
    public static final String TREE = ROOT + "/tree";
    public static final String BINARIES = ROOT + "/binaries";
    /** Writable by the writer service user only; each work request writes below its own child. */
    public static final String SCRATCH = "/var/vt-demo/scratch";

    /**
     * Property of each request's scratch node: the run (this class loaded once per bundle start) that wrote it.
     * {@link ScratchSweeper} removes scratch nodes of other runs only, which no request of this run can still use.
     */
    public static final String PN_RUN = "vt:run";
    public static final String RUN = java.util.UUID.randomUUID().toString();

    public static final String SUBSERVICE_WRITER = "writer";
    public static final String SUBSERVICE_SEEDER = "seeder";

    static final String PN_SEEDED = "vt:seeded";
    static final String PN_FOLDERS = "vt:folders";
    static final String PN_NODES_PER_FOLDER = "vt:nodesPerFolder";
    static final String PN_NODES = "vt:nodes";
    static final String PN_SEEDED_AT = "vt:seededAt";

    static final String FOLDER_PREFIX = "f";
    static final String LEAF_PREFIX = "n";

    /** The stored binaries, smallest first: fileLength is served from the smallest one that is long enough. */
    static final List<BinarySpec> BINARY_SPECS = List.of(
            new BinarySpec("1k", 1024),
            new BinarySpec("100k", 100 * 1024),
            new BinarySpec("1m", 1024 * 1024),
            new BinarySpec("10m", 10 * 1024 * 1024));

    private DemoContent() {
    }

    public record BinarySpec(String name, long size) {
        public String path() {
            return BINARIES + "/" + name;
        }
    }

    /** The size of a completely seeded tree: {@code folders} folders of {@code nodesPerFolder} leaves each. */
    public record TreeShape(long folders, long nodesPerFolder) {

        public long nodes() {
            return folders * nodesPerFolder;
        }

        /** Leaf {@code index} (wrapping around), so any number of reads maps onto the tree. */
        public String leafPath(long index) {
            long i = Math.floorMod(index, nodes());
            return TREE + "/" + FOLDER_PREFIX + (i / nodesPerFolder) + "/" + LEAF_PREFIX + (i % nodesPerFolder);
        }

        /** @return the shape recorded by a completed seeding, or null while the tree is missing or incomplete. */
        public static TreeShape readMarker(ResourceResolver resolver) {
            Resource root = resolver.getResource(ROOT);
            if (root == null) {
                return null;
            }
            ValueMap props = root.getValueMap();
            long folders = props.get(PN_FOLDERS, 0L);
            long perFolder = props.get(PN_NODES_PER_FOLDER, 0L);
            if (!props.get(PN_SEEDED, false) || folders <= 0 || perFolder <= 0) {
                return null;
            }
            return new TreeShape(folders, perFolder);
        }
    }

    /** The binary to read {@code length} bytes from: the smallest that holds them, else the largest, re-read. */
    public static BinarySpec binaryFor(long length) {
        for (BinarySpec spec : BINARY_SPECS) {
            if (spec.size() >= length) {
                return spec;
            }
        }
        return BINARY_SPECS.get(BINARY_SPECS.size() - 1);
    }
}
