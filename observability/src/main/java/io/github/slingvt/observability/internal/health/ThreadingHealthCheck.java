package io.github.slingvt.observability.internal.health;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.config.ConfigProblem;
import io.github.slingvt.config.ConfigReader;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.HttpThreadsSnapshot;
import io.github.slingvt.observability.internal.pinning.PinnedThreads;
import io.github.slingvt.observability.internal.pinning.PinningStats;
import io.github.slingvt.observability.internal.pinning.PinningText;

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
 * pinned virtual threads (from the pinning detector) per minute over the last interval, each against a WARN and
 * a CRITICAL rate. The Felix health check API is an optional import of this bundle, so the bundle still runs
 * where no health check bundles are installed; this component is then simply never used.
 */
// Immediate: a refused configuration is logged when it arrives, not when the check first runs.
// The defaults of hc.name and hc.tags as service properties: the constructor takes the raw map, so bnd does not
// derive them from ThreadingHealthCheckConfig, and without hc.tags the check could not be selected by its tag.
@Component(service = HealthCheck.class, configurationPid = ThreadingHealthCheckConfig.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL, immediate = true,
        property = {HealthCheck.NAME + "=" + ThreadingHealthCheck.DEFAULT_NAME, HealthCheck.TAGS + "=slingvt"})
@Designate(ocd = ThreadingHealthCheckConfig.class)
public final class ThreadingHealthCheck implements HealthCheck {

    static final String DEFAULT_NAME = "Sling VT request threads";

    private final HttpThreads threads;
    private final PinnedThreads pinning;
    private final Settings config;
    private final Supplier<List<ConfigProblem>> configProblems;
    private final LongSupplier clock;
    private final RateWindow window;

    /** Raw properties through the guard: a value of the wrong type must not unregister the check. */
    @Activate
    public ThreadingHealthCheck(@Reference HttpThreads threads, @Reference PinnedThreads pinning,
            @Reference ConfigGuard guard, Map<String, Object> properties) {
        this(threads, pinning, guard.read(ThreadingHealthCheckConfig.PID, properties, Settings::read),
                guard::problems, System::nanoTime);
    }

    ThreadingHealthCheck(HttpThreads threads, PinnedThreads pinning, Settings config,
            Supplier<List<ConfigProblem>> configProblems, LongSupplier clock) {
        this.threads = threads;
        this.pinning = pinning;
        this.config = config;
        this.configProblems = configProblems;
        this.clock = clock;
        long interval = TimeUnit.SECONDS.toNanos(config.intervalSeconds());
        this.window = new RateWindow(interval, clock.getAsLong(), threads.snapshot().rejected(), pinning.count());
    }

    @Override
    public Result execute() {
        HttpThreadsSnapshot now = threads.snapshot();
        RateWindow.Rates rates = window.sample(clock.getAsLong(), now.rejected(), pinning.count());
        FormattingResultLog log = new FormattingResultLog();
        log.info("Mode {}, in flight {}, queued {}; over the last {} s: {} rejected, {} pinned",
                now.mode().label(), now.inFlight(), now.queued(), rates.seconds(), rates.rejected(), rates.pinned());
        check(log, "Rejected requests (503)", rates.rejectedPerMinute(), config.rejectedPerMinuteWarn(),
                config.rejectedPerMinuteCritical());
        check(log, "Pinned virtual threads", rates.pinnedPerMinute(), config.pinnedPerMinuteWarn(),
                config.pinnedPerMinuteCritical());
        for (ConfigProblem problem : configProblems.get()) {
            // WARN, not CRITICAL: the instance serves, but not with the settings the operator asked for.
            log.warn("Configuration refused, the previous settings stay in force: {}", problem.message());
        }
        log.info("Pinning detector: {}", pinning.detectorState());
        if (rates.pinned() > 0 && !pinning.topStacks().isEmpty()) {
            PinningStats.StackCount top = pinning.topStacks().get(0);
            // No frames here: /system/health answers anonymous requests, and a stack shows the application's code.
            // The stacks are on the console page and in the status printer, both for admins only.
            log.info("Most frequent pinned stack: {} ({}); its frames are on the web console page Virtual Threads",
                    PinningText.headline(top), PinningText.remedy(top));
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

    /** The validated {@link ThreadingHealthCheckConfig} (hc.name and hc.tags are read by Felix, not here). */
    record Settings(long intervalSeconds, double rejectedPerMinuteWarn, double rejectedPerMinuteCritical,
            double pinnedPerMinuteWarn, double pinnedPerMinuteCritical) {

        static final double MAX_RATE = 1e9;

        static Settings read(ConfigReader r) {
            return new Settings(r.number("intervalSeconds", 300, 10, 86_400),
                    r.decimal("rejectedPerMinuteWarn", 10, 0, MAX_RATE),
                    r.decimal("rejectedPerMinuteCritical", 100, 0, MAX_RATE),
                    r.decimal("pinnedPerMinuteWarn", 1, 0, MAX_RATE),
                    r.decimal("pinnedPerMinuteCritical", 10, 0, MAX_RATE));
        }
    }
}
