package io.github.slingvt.http.internal;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The connector a Felix {@code ConnectorFactory} must return. Felix requires a {@link ServerConnector} (it lists
 * every connector as an endpoint), but this one never opens a port and never starts a thread: its lifecycle is
 * empty. It mirrors the host and port of Felix's own connector, so the advertised endpoint is the real one.
 */
final class HookConnector extends ServerConnector {

    HookConnector(Server server) {
        super(server, null, null, null, 0, 1, new HttpConnectionFactory());
        setName("sling-vt-hook");
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof ServerConnector network && !(connector instanceof HookConnector)) {
                setHost(network.getHost());
                setPort(network.getPort());
                break;
            }
        }
    }

    @Override
    protected void doStart() {
        // Deliberately nothing: no channel, no acceptor, no selector.
    }

    @Override
    protected void doStop() {
        // Nothing was started.
    }

    @Override
    public void open() {
        // Never binds.
    }

    @Override
    public boolean isOpen() {
        return false;
    }
}
