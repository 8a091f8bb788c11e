package io.github.slingvt.http.internal;

import java.util.concurrent.locks.ReentrantLock;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the connection of a waiting HTTP/1 request without a body for its client closing it. Jetty does not read
 * from a connection while one of its requests is being handled, so it would learn of the close only when the answer
 * is written; {@link #gone()} reads the connection once, without blocking, while the request waits. The end of the
 * stream means the client closed it; bytes mean it sent the next request before the answer to this one (HTTP/1.1
 * pipelining, which browsers and proxies do not use): both end the waiting request and the connection; a pipelining
 * client retries unanswered requests on a new connection (RFC 9112, 9.3.2). Nothing read is nothing: the client is
 * still there.
 * <p>
 * A read, not read interest with Jetty's selector: an interest update wakes the selector, a platform thread that
 * competes with the carriers, once per waiting request and again to take it back, while a read that finds nothing
 * costs one system call on the sweeping thread (docs/design/admission.md, "Clients that left").
 * <p>
 * Not watched (the watch is {@link ClientWatch#NONE}): HTTP/2 and later, whose connections Jetty keeps reading; a
 * request with a body, whose bytes the application still has to read; a connection that something else already
 * reads.
 */
final class ConnectionWatch implements ClientWatch {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatch.class);

    private final AbstractEndPoint endPoint;
    /** Held while the connection is read, so that {@link #release()} returns only once no read is under way. */
    private final ReentrantLock reading = new ReentrantLock();
    /** Guarded by {@link #reading}. */
    private boolean released;

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
    public boolean gone() {
        // Being released: the request is about to run and Jetty owns the connection again.
        if (!reading.tryLock()) {
            return false;
        }
        try {
            if (released) {
                return false;
            }
            int read = endPoint.fill(BufferUtil.allocate(1));
            if (read == 0) {
                return false;
            }
            LOG.debug("Client of a waiting request {} ({} read)", read < 0 ? "closed its connection" : "sent more", read);
            return true;
        } catch (Exception e) {
            LOG.debug("Connection of a waiting request failed", e);
            return true;
        } finally {
            reading.unlock();
        }
    }

    @Override
    public void release() {
        reading.lock();
        try {
            released = true;
        } finally {
            reading.unlock();
        }
    }
}
