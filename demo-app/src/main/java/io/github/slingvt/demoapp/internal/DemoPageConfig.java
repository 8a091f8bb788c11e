package io.github.slingvt.demoapp.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(
        name = "Sling VT - Demo page",
        description = "Limits of the demo page /content/vt-demo/page.html?reads=N&delay=MS (an HTL component whose "
                + "Sling Model reads N item nodes and waits MS milliseconds on a downstream call). Bad values are "
                + "answered 400. A demo, not for production exposure.")
public @interface DemoPageConfig {

    String PID = "io.github.slingvt.demoapp.DemoPage";

    @AttributeDefinition(
            name = "Anonymous: max reads",
            description = "Most item nodes an anonymous request may ask the page to read. Any web page can make a "
                    + "browser send anonymous GETs to this instance, so more needs a logged-in user: above this, an "
                    + "anonymous request is answered 403. 0-10000; logged-in users get the full range.")
    long anonymousMaxReads() default 200;

    @AttributeDefinition(
            name = "Anonymous: max delay (ms)",
            description = "Longest downstream wait (delay) an anonymous request may ask for, in milliseconds; above "
                    + "it, 403. 0-10000. A benchmark or lab instance that nobody else can reach may raise both "
                    + "limits to the full ranges, so that its load needs no login per request.")
    long anonymousMaxDelay() default 1_000;
}
