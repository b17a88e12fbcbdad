package io.ferry.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** A password kept in a file (the first line, without surrounding blanks), as --password-file options name them. */
public final class PasswordFile {
    private PasswordFile() {
    }

    public static String read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int end = text.indexOf('\n');
            return (end < 0 ? text : text.substring(0, end)).strip();
        } catch (IOException e) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "cannot read the password file " + file
                    + ": " + e.getMessage(), e);
        }
    }
}
