package io.ferry.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Ferry's version, as Maven stamped it into {@code io/ferry/server/version.properties} at build time. */
public final class FerryVersion {
    public static final String VERSION = load();
    public static final int MAJOR = part(0);
    public static final int MINOR = part(1);

    private FerryVersion() {
    }

    private static String load() {
        try (InputStream in = FerryVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int part(int index) {
        String[] parts = VERSION.replaceAll("-.*$", "").split("\\.");
        try {
            return index < parts.length ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
