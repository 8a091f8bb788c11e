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

    private final Runnable onStop;

    /** @param onStop run when Felix stops the server, which it then drops: what was installed on it is forgotten */
    HookConnector(Server server, Runnable onStop) {
        super(server, null, null, null, 0, 1, new HttpConnectionFactory());
        this.onStop = onStop;
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
        // Nothing was started; the server is going away (Felix restarts Jetty with a new Server on reconfiguration).
        onStop.run();
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
