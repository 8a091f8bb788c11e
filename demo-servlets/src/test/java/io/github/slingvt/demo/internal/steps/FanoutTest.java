package io.github.slingvt.demo.internal.steps;

import io.github.slingvt.demo.internal.SlowEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

public class FanoutTest {

    private SlowEndpoint endpoint;
    private Fanout fanout;

    @BeforeEach
    void start() throws Exception {
        endpoint = new SlowEndpoint();
        fanout = new Fanout();
    }

    @AfterEach
    void stop() {
        fanout.close();
        endpoint.close();
    }

    @Test
    void blockingCallsRunConcurrently() throws Exception {
        long start = System.nanoTime();
        WorkReport.Fanout result = fanout.callBlocking(endpoint.port(), 8, 300, null);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(result).isEqualTo(new WorkReport.Fanout(8, 8, 0, 300, null));
        assertThat(ms).isGreaterThanOrEqualTo(300).isLessThan(8 * 300);
        assertThat(endpoint.maxInFlight.get()).isGreaterThan(1).isLessThanOrEqualTo(8);
    }

    @Test
    void asyncCallsRunConcurrently() throws Exception {
        long start = System.nanoTime();
        WorkReport.Fanout result = fanout.callAsync(endpoint.port(), 8, 300, null).get(30, TimeUnit.SECONDS);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(result).isEqualTo(new WorkReport.Fanout(8, 8, 0, 300, null));
        assertThat(ms).isGreaterThanOrEqualTo(300).isLessThan(8 * 300);
        assertThat(endpoint.maxInFlight.get()).isGreaterThan(1);
    }

    @Test
    void non200AnswersCountAsFailed() throws Exception {
        endpoint.status = 401;
        assertThat(fanout.callBlocking(endpoint.port(), 3, 0, null))
                .isEqualTo(new WorkReport.Fanout(3, 0, 3, 0, "HTTP 401"));
        assertThat(fanout.callAsync(endpoint.port(), 2, 0, null).get(30, TimeUnit.SECONDS))
                .isEqualTo(new WorkReport.Fanout(2, 0, 2, 0, "HTTP 401"));
    }

    @Test
    void unreachableEndpointCountsAsFailedNotAsAnException() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        WorkReport.Fanout blocking = fanout.callBlocking(closedPort, 2, 0, null);
        assertThat(blocking.failed()).isEqualTo(2);
        assertThat(blocking.firstError()).contains("ConnectException");
        WorkReport.Fanout async = fanout.callAsync(closedPort, 2, 0, null).get(30, TimeUnit.SECONDS);
        assertThat(async.failed()).isEqualTo(2);
    }

    @Test
    void callerCredentialsArePassedOn() throws Exception {
        fanout.callBlocking(endpoint.port(), 1, 0, "Basic YWRtaW46YWRtaW4=");
        assertThat(endpoint.lastAuthorization).isEqualTo("Basic YWRtaW46YWRtaW4=");
    }

    @Test
    void zeroCallsCallNothing() throws Exception {
        WorkReport.Fanout nothing = new WorkReport.Fanout(0, 0, 0, 5, null);
        assertThat(fanout.callBlocking(endpoint.port(), 0, 5, null)).isEqualTo(nothing);
        assertThat(fanout.callAsync(endpoint.port(), 0, 5, null).get()).isEqualTo(nothing);
        assertThat(endpoint.maxInFlight.get()).isZero();
    }

    @Test
    void requestTargetsTheSlowEndpointOnLoopbackWithATimeout() {
        var request = Fanout.request(4502, 250, null);
        assertThat(request.uri()).hasToString("http://127.0.0.1:4502/bin/vt/slow.json?delay=250");
        assertThat(request.timeout()).hasValueSatisfying(
                timeout -> assertThat(timeout.toMillis()).isEqualTo(250 + Fanout.TIMEOUT_MARGIN_MS));
    }
}
