package io.github.slingvt.http.internal;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a {@link DispatchHandler} on top of a running Felix Jetty server and takes it off again, without
 * stopping Felix's handler chain: the chain is unmanaged while it is moved, so Jetty does not restart it.
 */
final class ServerInstaller {

    private static final Logger LOG = LoggerFactory.getLogger(ServerInstaller.class);

    private ServerInstaller() {
    }

    /** @return the installed handler, or {@code null} when this server must be left alone (reason logged). */
    static DispatchHandler install(Server server, ThreadingState state) {
        ThreadPool pool = server.getThreadPool();
        if (!(pool instanceof QueuedThreadPool qtp) || VirtualThreads.getVirtualThreadsExecutor(pool) != null) {
            LOG.error("Felix HTTP runs Jetty with its own virtual threads ({}); Sling VT leaves this server alone. "
                    + "Set org.apache.felix.http.jetty.virtualthreads.enable=false in PID org.apache.felix.http "
                    + "to let {} decide the request threads.", pool, VirtualThreadsConfig.PID);
            return null;
        }
        Handler chain = server.getHandler();
        if (chain instanceof DispatchHandler installed) {
            return installed;
        }
        DispatchHandler handler = new DispatchHandler(state);
        handler.setServer(server);
        if (chain != null) {
            server.unmanage(chain);
            handler.setHandler(chain);
        }
        server.setHandler(handler);
        if (chain != null) {
            handler.manage(chain);
        }
        applyKernelMaxThreads(server, state.settings().kernelMaxThreads());
        LOG.info("Sling VT request threading installed on {} (mode {})", server, state.settings().mode().label());
        return handler;
    }

    static void uninstall(Server server, DispatchHandler handler) {
        if (server.getHandler() != handler) {
            return;
        }
        Handler chain = handler.getHandler();
        if (chain != null) {
            handler.unmanage(chain);
        }
        server.setHandler(chain);
        if (chain != null) {
            server.manage(chain);
        }
        LOG.info("Sling VT request threading removed from {}", server);
    }

    static void applyKernelMaxThreads(Server server, int maxThreads) {
        if (server.getThreadPool() instanceof QueuedThreadPool qtp && qtp.getMaxThreads() != maxThreads) {
            try {
                qtp.setMaxThreads(maxThreads);
            } catch (IllegalStateException e) {
                LOG.error("Cannot set Jetty's max threads to {}: {}. Raise kernelMaxThreads in {}.",
                        maxThreads, e.getMessage(), VirtualThreadsConfig.PID);
            }
        }
    }
}
