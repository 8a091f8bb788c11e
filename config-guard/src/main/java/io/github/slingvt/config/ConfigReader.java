package io.github.slingvt.config;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Reads typed values from one configuration's raw property map and collects what it refuses instead of throwing.
 * Each getter returns the default when the property is absent, and also when its value is refused, after recording a
 * {@link ConfigProblem}; whether refused values leave the previous settings in force is {@link ConfigGuard}'s job.
 * <p>
 * Accepted forms: a value of the property's type, or a string of it (what the web console and configuration files
 * store), with surrounding blanks ignored. Refused: an empty or blank string, a list or array where one value
 * belongs, a number with a fraction where a whole number belongs, a value out of range, an unknown option.
 * <p>
 * Readers come from {@link ConfigGuard#read} (the usual way) or {@link ConfigGuard#reader}; a reader is used by one
 * thread and for one reading.
 */
@ProviderType
public interface ConfigReader {

    /** The PID the problems are recorded under. */
    String pid();

    /** {@code true} or {@code false} (any case). */
    boolean bool(String name, boolean defaultValue);

    /** A whole number from {@code min} to {@code max}. */
    int integer(String name, int defaultValue, int min, int max);

    /**
     * {@code keyword} (any case) or a whole number from {@code min} to {@code max}, for a number that may also be
     * left to the software ({@code auto}). Numbers stored as such (an Integer of an older configuration) keep working.
     *
     * @return {@code null} for the keyword, else the number (the default when absent or refused)
     */
    Integer integerOrKeyword(String name, String keyword, int defaultValue, int min, int max);

    /**
     * Whether the property's value is the text {@code keyword} (any case, surrounding blanks ignored), for a property
     * that takes several keywords besides a number. Records nothing.
     */
    boolean isKeyword(String name, String keyword);

    /** A whole number from {@code min} to {@code max}. */
    long number(String name, long defaultValue, long min, long max);

    /** A finite decimal number from {@code min} to {@code max}. */
    double decimal(String name, double defaultValue, double min, double max);

    /** One of {@code options} (any case); answers the option as listed. */
    String option(String name, String defaultValue, String... options);

    /** A non-blank text, trimmed. A {@code null} default makes the property required. */
    String text(String name, String defaultValue);

    /** A list of texts: a single string, an array or a collection of strings; blank entries are kept. */
    List<String> texts(String name, List<String> defaultValue);

    /** Records a refusal of this property's value; for checks across properties or of an entry's form. */
    void refuse(String name, String allowed);

    /** The problems found so far, in the order the properties were read. */
    List<ConfigProblem> problems();
}
