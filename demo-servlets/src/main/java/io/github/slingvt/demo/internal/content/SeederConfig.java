package io.github.slingvt.demo.internal.content;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - Demo content seeder",
        description = "Creates the demo content below /content/vt-demo in the background after start: a tree of "
                + "folders x nodes-per-folder nodes with a few properties each, and binaries of 1 KiB, 100 KiB, "
                + "1 MiB and 10 MiB. Idempotent: a complete tree of the configured size is left as it is, an "
                + "interrupted one is completed, a tree of another size is grown or pruned to this one.")
public @interface SeederConfig {

    String PID = "io.github.slingvt.demo.ContentSeeder";

    @AttributeDefinition(
            name = "Enabled",
            description = "When false, nothing is written; the status endpoint still reports existing content.")
    boolean enabled() default true;

    @AttributeDefinition(
            name = "Folders",
            description = "Width of the tree: folders directly below /content/vt-demo/tree. 1 to 10000.")
    int folders() default 100;

    @AttributeDefinition(
            name = "Nodes per folder",
            description = "Depth of the tree: leaf nodes in each folder; the tree holds folders x this many. "
                    + "1 to 10000.")
    int nodesPerFolder() default 100;

    @AttributeDefinition(
            name = "Batch size",
            description = "Nodes created per save, so that seeding never holds a large transient space. 1 to 100000.")
    int batchSize() default 1000;
}
