package io.ferry.server.cli;

import java.io.Console;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.server.PasswordFile;
import picocli.CommandLine.Option;

/**
 * The user a client command logs in as: {@code --user} (or {@code FERRY_USER}), with the password from
 * {@code FERRY_PASSWORD}, {@code --password-file}, or a prompt. Never an option of its own: a command line is
 * visible to every user of the machine.
 */
final class ClientLogin {
    @Option(names = "--user", paramLabel = "NAME", defaultValue = "${env:FERRY_USER}",
            description = "Log in as NAME on a server started with --users (default: $FERRY_USER). The password "
                    + "comes from $FERRY_PASSWORD, --password-file, or a prompt.")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE",
            description = "Read the password from the first line of FILE.")
    Path passwordFile;

    /** The user and password to send, or null when no user is given. */
    Credentials credentials() {
        if (user == null || user.isBlank()) {
            return null;
        }
        return new Credentials(user, password());
    }

    private char[] password() {
        return readPassword(user, passwordFile, false);
    }

    /**
     * A password for {@code user}: the first line of {@code file} if given, else {@code FERRY_PASSWORD}, else typed
     * at a prompt (twice when {@code confirm}, for a new password).
     */
    static char[] readPassword(String user, Path file, boolean confirm) {
        if (file != null) {
            return PasswordFile.read(file).toCharArray();
        }
        String env = System.getenv("FERRY_PASSWORD");
        if (env != null) {
            return env.toCharArray();
        }
        Console console = System.console();
        if (console == null) {
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "no password for user '" + user + "': set "
                    + "FERRY_PASSWORD or give --password-file (there is no terminal to ask on)");
        }
        char[] typed = console.readPassword("Password for %s: ", user);
        if (typed == null) {
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "no password given for user '" + user + "'");
        }
        if (confirm && !java.util.Arrays.equals(typed, console.readPassword("Again: "))) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the two passwords differ; nothing changed");
        }
        return typed;
    }

    /** A user name and password. */
    record Credentials(String user, char[] password) {
        /** The value of an HTTP {@code Authorization} header for them. */
        String basicHeader() {
            String pair = user + ":" + new String(password);
            return "Basic " + java.util.Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        }
    }
}
