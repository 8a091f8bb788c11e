package io.github.slingvt.http.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.felix.hc.api.FormattingResultLog;
import org.apache.felix.hc.api.HealthCheck;
import org.apache.felix.hc.api.Result;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Felix health check over the HTTP request threads: rejected requests (admission control answered 503) and
 * pinned virtual threads (from {@link PinningDetector}) per minute over the last interval, each against a WARN and
 * a CRITICAL rate. The Felix health check API is an optional import of this bundle, so the bundle still runs
 * where no health check bundles are installed; this component is then simply never used.
 */
@Component(service = HealthCheck.class, configurationPid = ThreadingHealthCheckConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ThreadingHealthCheckConfig.class)
public final class ThreadingHealthCheck implements HealthCheck {

    private final ThreadingState state;
    private final ThreadingHealthCheckConfig config;
    private final LongSupplier clock;
    private final RateWindow window;

    @Activate
    public ThreadingHealthCheck(@Reference VirtualThreadsConnectorFactory factory, ThreadingHealthCheckConfig config) {
        this(factory.state(), config, System::nanoTime);
    }

    ThreadingHealthCheck(ThreadingState state, ThreadingHealthCheckConfig config, LongSupplier clock) {
        this.state = state;
        this.config = config;
        this.clock = clock;
        long interval = TimeUnit.SECONDS.toNanos(Math.max(10, Math.min(86_400, config.intervalSeconds())));
        RequestCounters.Snapshot now = state.snapshot();
        this.window = new RateWindow(interval, clock.getAsLong(), now.rejected(), now.pinnedEvents());
    }

    @Override
    public Result execute() {
        RequestCounters.Snapshot now = state.snapshot();
        RateWindow.Rates rates = window.sample(clock.getAsLong(), now.rejected(), now.pinnedEvents());
        FormattingResultLog log = new FormattingResultLog();
        log.info("Mode {}, in flight {}, queued {}; over the last {} s: {} rejected, {} pinned",
                now.mode(), now.inFlight(), now.queued(), rates.seconds(), rates.rejected(), rates.pinned());
        check(log, "Rejected requests (503)", rates.rejectedPerMinute(), config.rejectedPerMinuteWarn(),
                config.rejectedPerMinuteCritical());
        check(log, "Pinned virtual threads", rates.pinnedPerMinute(), config.pinnedPerMinuteWarn(),
                config.pinnedPerMinuteCritical());
        PinningStats pinning = state.pinning();
        log.info("Pinning detector: {}", pinning.detectorState());
        if (rates.pinned() > 0 && !pinning.topStacks().isEmpty()) {
            log.info("Most frequent pinned stack: {}", PinningText.describe(pinning.topStacks().get(0)));
        }
        return new Result(log);
    }

    private static void check(FormattingResultLog log, String what, double perMinute, double warn, double critical) {
        String rate = String.format("%.2f", perMinute);
        if (perMinute > critical) {
            log.critical("{}: {} per minute, above the CRITICAL rate {}", what, rate, critical);
        } else if (perMinute > warn) {
            log.warn("{}: {} per minute, above the WARN rate {}", what, rate, warn);
        } else {
            log.info("{}: {} per minute (WARN above {}, CRITICAL above {})", what, rate, warn, critical);
        }
    }
}
