package io.github.slingvt.demo.internal;

import io.github.slingvt.demo.internal.content.ContentSeeder;
import io.github.slingvt.demo.internal.http.Responses;

import java.io.IOException;

import org.apache.sling.api.SlingJakartaHttpServletRequest;
import org.apache.sling.api.SlingJakartaHttpServletResponse;
import org.apache.sling.api.servlets.SlingJakartaSafeMethodsServlet;

/** GET /bin/vt/status.json: whether the demo content is seeded, so that benchmarks know when to start. */
public final class StatusServlet extends SlingJakartaSafeMethodsServlet {

    private static final long serialVersionUID = 1L;

    static final String PATH = "/bin/vt/status";

    private final transient ContentSeeder seeder;

    public StatusServlet(ContentSeeder seeder) {
        this.seeder = seeder;
    }

    @Override
    protected void doGet(SlingJakartaHttpServletRequest request, SlingJakartaHttpServletResponse response)
            throws IOException {
        // Read with the caller's resolver: "seeded" then also means "readable by whoever runs the benchmark".
        Responses.json(response, SlingJakartaHttpServletResponse.SC_OK, seeder.status(request.getResourceResolver()));
    }
}
