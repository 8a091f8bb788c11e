package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.content.DemoContent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Calendar;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.sling.api.resource.LoginException;
import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.Resource;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.slingvt.demo.internal.content.DemoContent.BinarySpec;
import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/** The three repository steps: reads of the demo tree, scratch writes, and reading a stored binary. */
public final class RepositorySteps {

    private static final Logger LOG = LoggerFactory.getLogger(RepositorySteps.class);

    private static final int BUFFER_SIZE = 64 * 1024;
    private static final String PAYLOAD = "Sling VT scratch write; removed by the request that wrote it. ".repeat(2);

    private final ResourceResolverFactory resolverFactory;

    public RepositorySteps(ResourceResolverFactory resolverFactory) {
        this.resolverFactory = resolverFactory;
    }

    /**
     * Checks, before any work and before any byte of the answer, that the content the request needs is there.
     *
     * @return the tree to read, or null when the request reads no nodes
     */
    TreeShape checkContent(ResourceResolver resolver, WorkRequest work) throws WorkException {
        TreeShape shape = null;
        if (work.reads() > 0) {
            shape = TreeShape.readMarker(resolver);
            if (shape == null) {
                throw new WorkException("reads", "the demo tree " + DemoContent.TREE
                        + " is not seeded yet (or not readable); see /bin/vt/status.json");
            }
        }
        if (work.fileLength() > 0 && content(resolver, DemoContent.binaryFor(work.fileLength())) == null) {
            throw new WorkException("fileLength", "binary " + DemoContent.binaryFor(work.fileLength()).path()
                    + " is not seeded yet (or not readable); see /bin/vt/status.json");
        }
        return shape;
    }

    WorkReport.Reads read(ResourceResolver resolver, TreeShape shape, long count) {
        if (count == 0) {
            return new WorkReport.Reads(0, 0, 0);
        }
        // A random start spreads concurrent requests over the tree instead of all reading the same first nodes.
        long start = ThreadLocalRandom.current().nextLong(shape.nodes());
        long properties = 0;
        long missing = 0;
        for (long i = 0; i < count; i++) {
            Resource node = resolver.getResource(shape.leafPath(start + i));
            if (node == null) {
                missing++;
                continue;
            }
            for (Map.Entry<String, Object> property : node.getValueMap().entrySet()) {
                if (property.getValue() != null) {
                    properties++;
                }
            }
        }
        return new WorkReport.Reads(count - missing, properties, missing);
    }

    /**
     * Creates {@code count} nodes below a node of this request's own, saves them, then removes them all. The
     * per-request node keeps concurrent writers apart; the finally block removes it even when saving failed.
     */
    WorkReport.Writes write(int count) throws WorkException {
        if (count == 0) {
            return new WorkReport.Writes(0, null, false);
        }
        try (ResourceResolver resolver = resolverFactory.getServiceResourceResolver(
                Map.of(ResourceResolverFactory.SUBSERVICE, DemoContent.SUBSERVICE_WRITER))) {
            return write(resolver, count);
        } catch (LoginException e) {
            throw new WorkException("writes", "cannot log in as the writer service user (service user mapping for "
                    + "subservice '" + DemoContent.SUBSERVICE_WRITER + "'): " + e.getMessage(), e);
        }
    }

    private static WorkReport.Writes write(ResourceResolver resolver, int count) throws WorkException {
        Resource scratch = resolver.getResource(DemoContent.SCRATCH);
        if (scratch == null) {
            throw new WorkException("writes", DemoContent.SCRATCH + " does not exist or is not readable by the "
                    + "writer service user (repoinit of the demo feature)");
        }
        String name = UUID.randomUUID().toString();
        String path = DemoContent.SCRATCH + "/" + name;
        int saved = 0;
        boolean removed = false;
        try {
            Resource mine = resolver.create(scratch, name, Map.of("jcr:primaryType", "nt:unstructured",
                    DemoContent.PN_RUN, DemoContent.RUN));
            Calendar now = Calendar.getInstance();
            for (int i = 0; i < count; i++) {
                resolver.create(mine, "w" + i, Map.of(
                        "jcr:primaryType", "nt:unstructured",
                        "index", (long) i,
                        "payload", PAYLOAD,
                        "created", now));
            }
            resolver.commit();
            saved = countChildren(resolver.getResource(path));
        } catch (PersistenceException e) {
            throw new WorkException("writes", "saving " + count + " nodes below " + path + " failed: "
                    + e.getMessage(), e);
        } finally {
            removed = remove(resolver, path);
        }
        return new WorkReport.Writes(saved, path, removed);
    }

    private static int countChildren(Resource resource) {
        int n = 0;
        if (resource != null) {
            for (Resource ignored : resource.getChildren()) {
                n++;
            }
        }
        return n;
    }

    /** @return true when nothing is left at {@code path} */
    private static boolean remove(ResourceResolver resolver, String path) {
        try {
            if (resolver.hasChanges()) {
                resolver.revert();
            }
            Resource resource = resolver.getResource(path);
            if (resource != null) {
                resolver.delete(resource);
                resolver.commit();
            }
            return resolver.getResource(path) == null;
        } catch (PersistenceException | RuntimeException e) {
            // Cleanup must not hide the outcome of the write itself; the node is left for an operator to remove.
            LOG.warn("Could not remove scratch node {}: {}", path, e.toString());
            return false;
        }
    }

    /**
     * Reads {@code length} bytes of a stored binary into {@code sink}, re-reading the largest binary when more
     * is asked than it holds.
     *
     * @throws IOException when the sink fails (a client that went away); repository failures are WorkExceptions
     */
    WorkReport.FileRead readBinary(ResourceResolver resolver, long length, OutputStream sink)
            throws WorkException, IOException {
        if (length == 0) {
            return new WorkReport.FileRead(0, null);
        }
        BinarySpec spec = DemoContent.binaryFor(length);
        byte[] buffer = new byte[(int) Math.min(BUFFER_SIZE, length)];
        long remaining = length;
        while (remaining > 0) {
            long pass = 0;
            try (InputStream in = open(resolver, spec)) {
                int n;
                while (remaining > 0 && (n = readSome(in, buffer, remaining, spec)) > 0) {
                    sink.write(buffer, 0, n);
                    remaining -= n;
                    pass += n;
                }
            }
            if (pass == 0) {
                throw new WorkException("fileLength", "binary " + spec.path() + " is empty");
            }
        }
        return new WorkReport.FileRead(length, spec.path());
    }

    private static int readSome(InputStream in, byte[] buffer, long remaining, BinarySpec spec) throws WorkException {
        try {
            return in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
        } catch (IOException e) {
            throw new WorkException("fileLength", "reading " + spec.path() + " failed: " + e.getMessage(), e);
        }
    }

    private static InputStream open(ResourceResolver resolver, BinarySpec spec) throws WorkException {
        Resource content = content(resolver, spec);
        InputStream in = content == null ? null : content.getValueMap().get("jcr:data", InputStream.class);
        if (in == null) {
            throw new WorkException("fileLength", "binary " + spec.path() + " is not seeded yet (or not readable)");
        }
        return in;
    }

    private static Resource content(ResourceResolver resolver, BinarySpec spec) {
        return resolver.getResource(spec.path() + "/jcr:content");
    }
}
