package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.Fixtures;
import io.github.slingvt.demo.internal.content.DemoContent;
import io.github.slingvt.demo.internal.content.PseudoRandomInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.sling.api.resource.LoginException;
import org.apache.sling.api.resource.PersistenceException;
import org.apache.sling.api.resource.ResourceResolver;
import org.apache.sling.api.resource.ResourceResolverFactory;
import org.apache.sling.testing.mock.sling.ResourceResolverType;
import org.apache.sling.testing.mock.sling.junit5.SlingContext;
import org.apache.sling.testing.mock.sling.junit5.SlingContextExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;

/** The repository steps on their own, including the failure paths the servlet tests cannot reach. */
@ExtendWith(SlingContextExtension.class)
public class RepositoryStepsTest {

    private final SlingContext context = new SlingContext(ResourceResolverType.RESOURCERESOLVER_MOCK);

    private RepositorySteps steps(ResourceResolverFactory factory) {
        return new RepositorySteps(factory);
    }

    private ResourceResolverFactory factory() {
        return context.getService(ResourceResolverFactory.class);
    }

    @Test
    void eachWriteHasItsOwnPathAndLeavesNothing() throws Exception {
        Fixtures.repoinit(context);
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            WorkReport.Writes writes = steps(factory()).write(3);
            assertThat(writes.nodes()).isEqualTo(3);
            assertThat(writes.removed()).isTrue();
            paths.add(writes.path());
        }
        assertThat(paths).hasSize(8);
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void failedSaveLeavesNothingBehind() throws Exception {
        Fixtures.repoinit(context);
        ResourceResolverFactory failingCommits = failingCommitFactory(factory());
        assertThatThrownBy(() -> steps(failingCommits).write(5))
                .isInstanceOfSatisfying(WorkException.class, e -> {
                    assertThat(e.step()).isEqualTo("writes");
                    assertThat(e.getMessage()).contains("disk full");
                });
        assertThat(Fixtures.scratchChildren(context.resourceResolver())).isEmpty();
    }

    @Test
    void missingServiceUserIsAWorkException() {
        ResourceResolverFactory noUser = (ResourceResolverFactory) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ResourceResolverFactory.class}, (proxy, method, args) -> {
                    throw new LoginException("no service user");
                });
        assertThatThrownBy(() -> steps(noUser).write(1))
                .isInstanceOfSatisfying(WorkException.class, e -> assertThat(e.getMessage()).contains("writer"));
    }

    @Test
    void noWritesLogInToNothing() throws Exception {
        assertThat(steps(null).write(0)).isEqualTo(new WorkReport.Writes(0, null, false));
    }

    @Test
    void fileLengthBeyondTheLargestBinaryReadsItAgain() throws Exception {
        Fixtures.seed(context, new TreeShape(1, 1));
        long tenMiB = 10L * 1024 * 1024;
        long length = tenMiB + 1234;
        VerifyingSink sink = new VerifyingSink(tenMiB);
        WorkReport.FileRead read = steps(factory()).readBinary(context.resourceResolver(), length, sink);
        assertThat(read).isEqualTo(new WorkReport.FileRead(length, DemoContent.BINARIES + "/10m"));
        assertThat(sink.count.get()).isEqualTo(length);
        assertThat(sink.mismatches).isZero();
    }

    @Test
    void readsCountMissingNodesWithoutFailing() throws Exception {
        Fixtures.seed(context, new TreeShape(2, 2));
        context.resourceResolver().delete(context.resourceResolver().getResource(DemoContent.TREE + "/f0/n0"));
        context.resourceResolver().commit();
        WorkReport.Reads reads = steps(factory()).read(context.resourceResolver(), new TreeShape(2, 2), 8);
        assertThat(reads.nodes()).isEqualTo(6);
        assertThat(reads.missing()).isEqualTo(2);
    }

    /** Checks the bytes against the 10m binary's content, which starts over after {@code period} bytes. */
    private static final class VerifyingSink extends OutputStream {
        private final long period;
        private final AtomicLong count = new AtomicLong();
        private InputStream expected;
        private long mismatches;

        VerifyingSink(long period) {
            this.period = period;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            if (count.get() % period == 0) {
                expected = new PseudoRandomInputStream("10m", period);
            }
            if (expected.read() != (b & 0xff)) {
                mismatches++;
            }
            count.incrementAndGet();
        }
    }

    /** A factory whose service resolvers fail every commit that saves new nodes. */
    private static ResourceResolverFactory failingCommitFactory(ResourceResolverFactory real) {
        return (ResourceResolverFactory) Proxy.newProxyInstance(RepositoryStepsTest.class.getClassLoader(),
                new Class<?>[] {ResourceResolverFactory.class}, (proxy, method, args) -> {
                    Object result = invoke(method, real, args);
                    if (result instanceof ResourceResolver resolver) {
                        return failingCommits(resolver);
                    }
                    return result;
                });
    }

    private static ResourceResolver failingCommits(ResourceResolver real) {
        boolean[] failed = {false};
        return (ResourceResolver) Proxy.newProxyInstance(RepositoryStepsTest.class.getClassLoader(),
                new Class<?>[] {ResourceResolver.class}, (proxy, method, args) -> {
                    if (method.getName().equals("commit") && !failed[0]) {
                        failed[0] = true;
                        throw new PersistenceException("disk full");
                    }
                    return invoke(method, real, args);
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void serviceResolverIsAskedForTheWriterSubservice() throws Exception {
        Fixtures.repoinit(context);
        AtomicReference<Object> asked = new AtomicReference<>();
        ResourceResolverFactory real = factory();
        ResourceResolverFactory recording = (ResourceResolverFactory) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {ResourceResolverFactory.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getServiceResourceResolver")) {
                        asked.set(args[0]);
                    }
                    return invoke(method, real, args);
                });
        steps(recording).write(1);
        assertThat(asked.get()).isEqualTo(Map.of(ResourceResolverFactory.SUBSERVICE, "writer"));
    }
}
