/** The servlets' HTTP answers (JSON through Jackson, 400/403/405/503 with their reasons) and parameter checks. */
package io.github.slingvt.demo.internal.http;
