package io.github.slingvt.demoapp.internal;

import java.io.IOException;
import java.util.Map;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

import io.github.slingvt.config.ConfigGuard;
import io.github.slingvt.demoapp.internal.PageParameters.InvalidPageParameterException;

/**
 * Checks the demo page's parameters before HTL renders it: a bad value is answered 400 naming the parameter and
 * its range, and more work than {@link DemoPageConfig} allows anonymous visitors 403; neither reaches the model.
 * A Sling request filter on {@code .html} requests that compares the resource type itself, so that the page's
 * script stays plain HTL.
 * <p>
 * Not {@code sling.filter.resourceTypes}: with it, Sling's filter chain asks every request's resource (a
 * {@code /bin/vt/work.json} POST as well) whether it is of that type, and Sling resource resolver 2.0.2 answers a type
 * it has not seen by logging in a service session to read the type's super types, inside
 * {@code ConcurrentHashMap.computeIfAbsent}. A virtual thread that waits in that login on JDK 21 pins its carrier
 * (37 ms seen, PinningHealthE2EIT), and the login can cost every request a repository session.
 */
@Component(service = Filter.class, configurationPid = DemoPageConfig.PID, property = {
        "sling.filter.scope=REQUEST",
        "sling.filter.extensions=html",
        "service.ranking:Integer=0"})
@Designate(ocd = DemoPageConfig.class)
public final class DemoPageFilter implements Filter {

    static final String RESOURCE_TYPE = "slingvt/components/page";

    private final PageParameters anonymousMax;

    @Activate
    public DemoPageFilter(@Reference ConfigGuard guard, Map<String, Object> properties) {
        this.anonymousMax = guard.read(DemoPageConfig.PID, properties, r -> new PageParameters(
                r.integer("anonymousMaxReads", 200, 0, PageParameters.MAX_READS),
                r.number("anonymousMaxDelay", 1_000, 0, PageParameters.MAX_DELAY)));
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!isDemoPage(request)) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletRequest http = (HttpServletRequest) request;
        HttpServletResponse httpResponse = (HttpServletResponse) response;
        PageParameters asked;
        try {
            asked = PageParameters.parse(http::getParameter);
        } catch (InvalidPageParameterException e) {
            refuse(httpResponse, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
            return;
        }
        String tooHeavy = tooHeavyForAnonymous(asked);
        if (tooHeavy != null && !isLoggedIn(http)) {
            refuse(httpResponse, HttpServletResponse.SC_FORBIDDEN, tooHeavy + "; log in (for example basic "
                    + "authentication as admin) for the full range, or ask for less");
            return;
        }
        chain.doFilter(request, response);
    }

    /** The first parameter above its anonymous limit, described, or null. */
    String tooHeavyForAnonymous(PageParameters asked) {
        if (asked.reads() > anonymousMax.reads()) {
            return "reads=" + asked.reads() + " needs a logged-in user (anonymous limit " + anonymousMax.reads() + ")";
        }
        if (asked.delay() > anonymousMax.delay()) {
            return "delay=" + asked.delay() + " needs a logged-in user (anonymous limit " + anonymousMax.delay() + ")";
        }
        return null;
    }

    /** The resource's own type only: no super type lookup (see the class comment). */
    private static boolean isDemoPage(ServletRequest request) {
        return request instanceof SlingJakartaHttpServletRequest sling && sling.getResource() != null
                && RESOURCE_TYPE.equals(sling.getResource().getResourceType());
    }

    private static boolean isLoggedIn(HttpServletRequest request) {
        String user = request.getRemoteUser();
        return user != null && !user.isBlank() && !"anonymous".equals(user);
    }

    private static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.reset();
        response.setStatus(status);
        response.setContentType("text/plain");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().println(message);
    }
}
