package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.http.Json;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.sling.api.resource.ResourceResolver;

import io.github.slingvt.demo.internal.content.DemoContent.TreeShape;
import io.github.slingvt.jdbc.RoundTrips;

/**
 * Runs the work steps in their fixed order (reads, writes, fileLength, idleDelay, cpuIterations, fanout) and
 * records each in the report. The async servlet runs only the repository part through here: JCR has no
 * non-blocking API, and Sling closes the request's resolver when the servlet's first dispatch returns.
 */
public final class WorkSteps {

    private final RepositorySteps repository;
    private final Fanout fanout;
    private final RoundTrips roundTrips;

    public WorkSteps(RepositorySteps repository, Fanout fanout, RoundTrips roundTrips) {
        this.repository = repository;
        this.fanout = fanout;
        this.roundTrips = roundTrips;
    }

    public Fanout fanout() {
        return fanout;
    }

    /** Fails before any work is done when the content the request needs is missing. */
    public TreeShape checkContent(ResourceResolver resolver, WorkRequest work) throws WorkException {
        return repository.checkContent(resolver, work);
    }

    /**
     * reads, writes and fileLength, and the database round trips they caused on this thread ({@code db.roundTrips}:
     * the JDBC connections Oak borrowed, one per query; 0 on a segment-tar repository).
     *
     * @param fileSink where the binary's bytes go: the response body of work.bin, else nowhere
     * @param beforeFile called just before the first byte goes to the sink, to set headers
     * @throws IOException only when writing to {@code fileSink} fails
     */
    public void repositorySteps(ResourceResolver resolver, TreeShape shape, WorkRequest work, WorkReport report,
            OutputStream fileSink, Runnable beforeFile) throws WorkException, IOException {
        long trips = roundTrips.onThisThread();
        try {
            long start = System.nanoTime();
            report.reads(repository.read(resolver, shape, work.reads()), start);
            start = System.nanoTime();
            report.writes(repository.write(work.writes()), start);
            beforeFile.run();
            start = System.nanoTime();
            report.fileRead(repository.readBinary(resolver, work.fileLength(), fileSink), start);
        } finally {
            report.put("db", Json.object("roundTrips", roundTrips.onThisThread() - trips));
        }
    }

    /** idleDelay, cpuIterations and fanout, blocking the calling thread. */
    public void blockingSteps(WorkRequest work, WorkReport report, int port, String authorization) throws WorkException {
        long start = System.nanoTime();
        LocalSteps.idle(work.idleDelay(), "idleDelay");
        report.idle(start);
        start = System.nanoTime();
        report.cpu(LocalSteps.cpu(work.cpuIterations()), start);
        start = System.nanoTime();
        report.fanout(fanout.callBlocking(port, work.fanout(), work.fanoutDelay(), authorization), start);
    }
}
