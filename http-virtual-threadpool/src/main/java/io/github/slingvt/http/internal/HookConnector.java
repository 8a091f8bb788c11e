package io.github.slingvt.http.internal;

import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;

/**
 * The connector a Felix {@code ConnectorFactory} must return. It has no port and no acceptor thread, so it
 * serves nothing and costs nothing; it only exists because Felix's hook is shaped as a connector factory.
 */
final class HookConnector extends AbstractConnector {

    HookConnector(Server server) {
        super(server, null, null, null, 0, new HttpConnectionFactory());
        setName("sling-vt-hook");
    }

    @Override
    protected void accept(int acceptorID) {
        throw new UnsupportedOperationException("sling-vt-hook accepts no connections");
    }

    @Override
    public Object getTransport() {
        return null;
    }
}
