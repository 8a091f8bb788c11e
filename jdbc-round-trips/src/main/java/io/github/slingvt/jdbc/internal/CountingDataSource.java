package io.github.slingvt.jdbc.internal;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Oak's data source in front of the real pool: every connection borrowed through it is counted for the borrowing
 * thread ({@link ThreadCounts}), everything else is the pool's. Only exists where it is configured (the
 * {@code sling-vt-postgres} feature); its service properties (above all {@code datasource.name}) come from the
 * configuration, so Oak binds it like any Sling data source.
 */
@Component(service = DataSource.class, configurationPid = CountingDataSourceConfig.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = CountingDataSourceConfig.class)
public final class CountingDataSource implements DataSource {

    private final DataSource pool;

    @Activate
    public CountingDataSource(@Reference(name = "pool") DataSource pool) {
        this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = pool.getConnection();
        ThreadCounts.borrowed();
        return connection;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Connection connection = pool.getConnection(username, password);
        ThreadCounts.borrowed();
        return connection;
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
