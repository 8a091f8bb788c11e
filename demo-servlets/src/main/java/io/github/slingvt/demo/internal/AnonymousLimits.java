package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.http.Json;
import io.github.slingvt.demo.internal.http.Responses;
import io.github.slingvt.demo.internal.steps.WorkRequest;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.slingvt.config.ConfigReader;

/**
 * How much work an anonymous request may ask for. Any web page can make a developer's browser send GETs to
 * 127.0.0.1 (an {@code <img>} is enough), so anonymous requests get light work only: a few reads, a short wait, a
 * small file, a little CPU and no downstream calls. Beyond that a logged-in user is needed, up to the servlets' full
 * ranges. Each limit is one attribute of {@link DemoServletsConfig}.
 */
public record AnonymousLimits(long reads, long idleDelay, long fileLength, long cpuIterations, long fanout) {

    static final AnonymousLimits DEFAULTS = new AnonymousLimits(1_000, 1_000, 1024 * 1024, 1_000, 0);

    /** No limit below the servlets' own ranges: what a lab instance (the benchmark's) may configure. */
    static final AnonymousLimits NONE = new AnonymousLimits(WorkRequest.MAX_READS, WorkRequest.MAX_DELAY,
            WorkRequest.MAX_FILE_LENGTH, WorkRequest.MAX_CPU_ITERATIONS, WorkRequest.MAX_FANOUT);

    static AnonymousLimits read(ConfigReader config) {
        return new AnonymousLimits(
                config.number("anonymousMaxReads", DEFAULTS.reads, 0, WorkRequest.MAX_READS),
                config.number("anonymousMaxIdleDelay", DEFAULTS.idleDelay, 0, WorkRequest.MAX_DELAY),
                config.number("anonymousMaxFileLength", DEFAULTS.fileLength, 0, WorkRequest.MAX_FILE_LENGTH),
                config.number("anonymousMaxCpuIterations", DEFAULTS.cpuIterations, 0, WorkRequest.MAX_CPU_ITERATIONS),
                config.number("anonymousMaxFanout", DEFAULTS.fanout, 0, WorkRequest.MAX_FANOUT));
    }

    /** The first parameter of {@code work} above its anonymous limit, as "name=value (anonymous limit N)", or null. */
    String exceeded(WorkRequest work) {
        long[][] checks = {{work.reads(), reads}, {work.fileLength(), fileLength}, {work.idleDelay(), idleDelay},
                {work.cpuIterations(), cpuIterations}, {work.fanout(), fanout}};
        String[] names = {"reads", "fileLength", "idleDelay", "cpuIterations", "fanout"};
        for (int i = 0; i < checks.length; i++) {
            if (checks[i][0] > checks[i][1]) {
                return describe(names[i], checks[i][0], checks[i][1]);
            }
        }
        // fanoutDelay is waited by the downstream calls, which fanout=0 does not make.
        return null;
    }

    /** The slow endpoint's {@code delay} is a wait like {@code idleDelay}. */
    String exceededDelay(long delay) {
        return delay > idleDelay ? describe("delay", delay, idleDelay) : null;
    }

    /**
     * Answers 403 and false when {@code exceeded} (from {@link #exceeded} or {@link #exceededDelay}) is not null and
     * the request is anonymous; true when the request may go on.
     */
    static boolean allow(HttpServletRequest request, HttpServletResponse response, String exceeded) throws IOException {
        if (exceeded == null || Responses.isLoggedIn(request)) {
            return true;
        }
        Map<String, Object> body = Json.object("error", "heavy work needs a logged-in user: " + exceeded
                + "; log in (for example basic authentication as admin) for the full range, or ask for less");
        body.put("parameter", exceeded.substring(0, exceeded.indexOf('=')));
        Responses.json(response, HttpServletResponse.SC_FORBIDDEN, body);
        return false;
    }

    private static String describe(String name, long value, long limit) {
        return name + "=" + value + " (anonymous limit " + limit + ")";
    }
}
