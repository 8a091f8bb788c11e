package io.github.slingvt.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

class CountingDataSourceTest {

    private final AtomicInteger borrowedFromPool = new AtomicInteger();
    private final DataSource pool = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DataSource.class}, (proxy, method, args) -> switch (method.getName()) {
                case "getConnection" -> {
                    borrowedFromPool.incrementAndGet();
                    yield Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                            (c, m, a) -> null);
                }
                case "getLoginTimeout" -> 7;
                case "isWrapperFor" -> false;
                default -> throw new SQLException("not in this test: " + method.getName());
            });
    private final CountingDataSource counting = new CountingDataSource(pool);
    private final ThreadCounts counts = new ThreadCounts();

    @Test
    void eachBorrowedConnectionCountsForTheBorrowingThreadOnly() throws Exception {
        long mine = counts.onThisThread();
        long total = counts.total();
        counting.getConnection();
        counting.getConnection("u", "p");
        Thread other = Thread.ofVirtual().start(() -> {
            try {
                long before = counts.onThisThread();
                counting.getConnection();
                assertThat(counts.onThisThread() - before).isEqualTo(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        other.join();
        assertThat(counts.onThisThread() - mine).as("this thread's round trips").isEqualTo(2);
        assertThat(counts.total() - total).as("all threads").isGreaterThanOrEqualTo(3);
        assertThat(borrowedFromPool.get()).isEqualTo(3);
    }

    @Test
    void aFailedBorrowIsNotARoundTrip() throws Exception {
        DataSource failing = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    throw new SQLException("pool exhausted");
                });
        long mine = counts.onThisThread();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new CountingDataSource(failing).getConnection())
                .isInstanceOf(SQLException.class).hasMessage("pool exhausted");
        assertThat(counts.onThisThread()).isEqualTo(mine);
    }

    @Test
    void everythingElseIsThePools() throws Exception {
        assertThat(counting.getLoginTimeout()).isEqualTo(7);
        assertThat(counting.unwrap(CountingDataSource.class)).isSameAs(counting);
        assertThat(counting.isWrapperFor(DataSource.class)).isTrue();
    }
}
