package io.github.slingvt.demo.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/** What a container's AsyncContext does for the servlet: hold request and response until complete(). */
public final class FakeAsyncContext implements AsyncContext {

    final ServletRequest request;
    final ServletResponse response;
    final List<AsyncListener> listeners = new ArrayList<>();
    final CountDownLatch completed = new CountDownLatch(1);
    final AtomicInteger completions = new AtomicInteger();
    volatile long timeout;

    FakeAsyncContext(ServletRequest request, ServletResponse response) {
        this.request = request;
        this.response = response;
    }

    /** What the container does when the timeout passes. */
    void fireTimeout() throws Exception {
        for (AsyncListener listener : listeners) {
            listener.onTimeout(new AsyncEvent(this));
        }
    }

    @Override
    public ServletRequest getRequest() {
        return request;
    }

    @Override
    public ServletResponse getResponse() {
        return response;
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        return true;
    }

    @Override
    public void dispatch() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void dispatch(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void complete() {
        completions.incrementAndGet();
        completed.countDown();
    }

    @Override
    public void start(Runnable run) {
        Thread.ofVirtual().start(run);
    }

    @Override
    public void addListener(AsyncListener listener) {
        listeners.add(listener);
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest servletRequest, ServletResponse servletResponse) {
        listeners.add(listener);
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> clazz) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setTimeout(long timeout) {
        this.timeout = timeout;
    }

    @Override
    public long getTimeout() {
        return timeout;
    }
}
