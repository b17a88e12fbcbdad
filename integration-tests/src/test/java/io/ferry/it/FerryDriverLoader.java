package io.ferry.it;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.sql.Driver;

/** The one-jar ferry-jdbc driver (system property ferry.jdbc.jar), loaded on its own as a BI tool would load it. */
final class FerryDriverLoader {
    private FerryDriverLoader() {
    }

    static Driver load() throws Exception {
        URL jar = Path.of(System.getProperty("ferry.jdbc.jar")).toUri().toURL();
        ClassLoader isolated = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
        return (Driver) Class.forName("io.ferry.jdbc.FerryDriver", true, isolated).getDeclaredConstructor()
                .newInstance();
    }
}
