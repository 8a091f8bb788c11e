package io.github.slingvt.http.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the connection of a waiting HTTP/1 request without a body for its client closing it. Jetty does not read
 * from a connection while one of its requests is being handled, so it would learn of the close only when the answer
 * is written; this registers read interest on the connection for the time the request waits for admission. A
 * readable connection then means the client closed it (the end of the stream) or sent the next request before the
 * answer to this one (HTTP/1.1 pipelining, which browsers and proxies do not use): both end the waiting request and
 * the connection; a pipelining client retries unanswered requests on a new connection (RFC 9112, 9.3.2).
 * <p>
 * Not watched (the watch is {@link ClientWatch#NONE}): HTTP/2 and later, whose connections Jetty keeps reading; a
 * request with a body, whose bytes the application still has to read; a connection that something else already
 * reads.
 */
final class ConnectionWatch implements ClientWatch, Callback {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatch.class);
    private static final CancellationException RELEASED = new CancellationException("admitted or answered");

    private final AbstractEndPoint endPoint;
    private final AtomicReference<Runnable> onGone = new AtomicReference<>();
    private final AtomicBoolean interested = new AtomicBoolean();
    private volatile boolean released;

    private ConnectionWatch(AbstractEndPoint endPoint) {
        this.endPoint = endPoint;
    }

    /** A watch of the request's connection, or {@link ClientWatch#NONE} where it cannot be watched safely. */
    static ClientWatch of(Request request) {
        HttpVersion version = request.getConnectionMetaData().getHttpVersion();
        if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
            return NONE;
        }
        if (request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH) > 0
                || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)) {
            return NONE;
        }
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        return endPoint instanceof AbstractEndPoint abstractEndPoint ? new ConnectionWatch(abstractEndPoint) : NONE;
    }

    @Override
    public void watch(Runnable gone) {
        onGone.set(gone);
        interest();
    }

    @Override
    public void release() {
        released = true;
        // Jetty registers its own read interest only after the answer: ours must be gone before the request runs.
        if (interested.compareAndSet(true, false)) {
            endPoint.getFillInterest().onFail(RELEASED);
        }
    }

    private void interest() {
        if (released) {
            return;
        }
        interested.set(true);
        if (!endPoint.tryFillInterested(this)) {
            interested.set(false);
        } else if (released && interested.compareAndSet(true, false)) {
            endPoint.getFillInterest().onFail(RELEASED);
        }
    }

    /** The connection is readable: the client closed it, or sent more. */
    @Override
    public void succeeded() {
        if (!interested.compareAndSet(true, false) || released) {
            return;
        }
        ByteBuffer probe = BufferUtil.allocate(1);
        try {
            int read = endPoint.fill(probe);
            if (read == 0) {
                interest();
                return;
            }
            LOG.debug("Client of a waiting request {} ({} read)", read < 0 ? "closed its connection" : "sent more", read);
        } catch (Exception e) {
            LOG.debug("Connection of a waiting request failed", e);
        }
        clientGone();
    }

    /** Read interest failed: released by us, or the connection closed or timed out. */
    @Override
    public void failed(Throwable cause) {
        if (cause == RELEASED || released) {
            return;
        }
        interested.set(false);
        clientGone();
    }

    private void clientGone() {
        Runnable gone = onGone.getAndSet(null);
        if (gone != null) {
            gone.run();
        }
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
