package io.github.slingvt.http.internal;

import java.io.IOException;
import java.time.Duration;

import io.github.slingvt.config.ConfigUpdates;
import io.github.slingvt.http.api.HttpModeSwitch;
import io.github.slingvt.http.api.HttpThreads;
import io.github.slingvt.http.api.ThreadingMode;

import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live switch: stores {@code mode} in this bundle's own configuration (every other property kept), then waits
 * until {@link VirtualThreadsConnectorFactory} has applied it. Going through Configuration Admin rather than
 * setting the state directly keeps one source of truth: the switch survives a restart and the configuration
 * manager shows what is in force.
 */
@Component(service = HttpModeSwitch.class)
public final class ModeSwitcher implements HttpModeSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(ModeSwitcher.class);

    private final ConfigurationAdmin configurationAdmin;
    private final HttpThreads threads;

    @Activate
    public ModeSwitcher(@Reference ConfigurationAdmin configurationAdmin, @Reference HttpThreads threads) {
        this.configurationAdmin = configurationAdmin;
        this.threads = threads;
    }

    @Override
    public boolean switchTo(ThreadingMode mode, Duration wait) throws IOException, InterruptedException {
        ConfigUpdates.setProperty(configurationAdmin, VirtualThreadsConfig.PID, "mode", mode.label());
        LOG.info("HTTP request threads: mode={} requested through {}", mode.label(), HttpModeSwitch.class.getName());
        long deadline = System.nanoTime() + wait.toNanos();
        while (threads.snapshot().mode() != mode) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
