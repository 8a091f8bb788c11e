package io.github.slingvt.observability.internal.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SameOriginTest {

    /** A request to http://127.0.0.1:8080 with the given headers. */
    private static HttpServletRequest request(Map<String, String> headers) {
        return (HttpServletRequest) Proxy.newProxyInstance(SameOriginTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getScheme" -> "http";
                    case "getServerName" -> "127.0.0.1";
                    case "getServerPort" -> 8080;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void thisServersPagesAndNonBrowserClientsPass() {
        assertThat(SameOrigin.refusal(request(Map.of("Origin", "http://127.0.0.1:8080")))).isNull();
        assertThat(SameOrigin.refusal(request(Map.of("Referer", "http://127.0.0.1:8080/system/console/slingvt"))))
                .isNull();
        assertThat(SameOrigin.refusal(request(Map.of()))).as("curl, ./sling-vt mode").isNull();
    }

    @Test
    void otherSitesSandboxedPagesAndOtherPortsAreRefused() {
        assertThat(SameOrigin.refusal(request(Map.of("Origin", "https://evil.example"))))
                .startsWith("Origin 'https://evil.example' is not this server (http://127.0.0.1:8080)");
        assertThat(SameOrigin.refusal(request(Map.of("Origin", "null")))).isNotNull();
        assertThat(SameOrigin.refusal(request(Map.of("Origin", "http://127.0.0.1:9090")))).isNotNull();
        assertThat(SameOrigin.refusal(request(Map.of("Referer", "http://localhost.evil/x")))).startsWith("Referer");
        assertThat(SameOrigin.refusal(request(Map.of("Origin", "http://evil.example",
                "Referer", "http://127.0.0.1:8080/")))).as("Origin wins over Referer").isNotNull();
    }

    /** Tricks a hand-made comparison of texts could fall for; a default port equals an explicit one. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "Origin|http://127.0.0.1:8080|true",
        "Referer|http://127.0.0.1:8080/bin?x=1|true",
        "Origin|HTTP://127.0.0.1:8080|true",
        "Origin|http://127.0.0.1|false",
        "Origin|https://127.0.0.1:8080|false",
        "Origin|http://127.0.0.1.evil.example:8080|false",
        "Referer|http://127.0.0.1:8080@evil.example/|false",
        "Referer|http://evil.example/?http://127.0.0.1:8080|false",
        "Referer|not a url|false"})
    void comparesSchemeHostAndPortOfTheParsedAddress(String header, String value, boolean same) {
        assertThat(SameOrigin.refusal(request(Map.of(header, value)))).as("%s %s", header, value)
                .satisfies(refusal -> assertThat(refusal == null).isEqualTo(same));
    }
}
