package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;

import io.ferry.sql.access.AccessControl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code ferry user add|passwd}: users of a users file, before a server runs with it (the first admin, or a password
 * an admin forgot). A running server manages its users with CREATE/ALTER/DROP USER, GRANT and REVOKE.
 */
@Command(name = "user", mixinStandardHelpOptions = true,
        description = "Add a user to a users file, or set a user's password there (before starting a server with "
                + "--users FILE). The password comes from $FERRY_PASSWORD, --password-file, or a prompt.",
        subcommands = {UserCommand.Add.class, UserCommand.Passwd.class})
final class UserCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name a subcommand: add or passwd");
    }

    /** What both subcommands take. */
    static final class Target {
        @Parameters(index = "0", paramLabel = "NAME", description = "The user's name.")
        String name;

        @Option(names = "--users", required = true, paramLabel = "FILE",
                description = "The users file (made if missing, readable by its owner only).")
        Path file;

        @Option(names = "--password-file", paramLabel = "FILE",
                description = "Read the password from the first line of FILE.")
        Path passwordFile;
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Add a user to a users file.")
    static final class Add implements Runnable {
        @Spec
        private CommandSpec spec;

        @picocli.CommandLine.Mixin
        private Target target;

        @Option(names = "--admin", description = "The user may do everything: DDL, users, grants, every table.")
        private boolean admin;

        @Override
        public void run() {
            char[] password = ClientLogin.readPassword(target.name, target.passwordFile, true);
            AccessControl.addToFile(target.file, target.name, password, admin);
            PrintWriter out = spec.commandLine().getOut();
            out.println("added " + (admin ? "admin " : "user ") + target.name + " to " + target.file
                    + "; start a server with --users " + target.file);
            out.flush();
        }
    }

    @Command(name = "passwd", mixinStandardHelpOptions = true, description = "Set a user's password in a users file.")
    static final class Passwd implements Runnable {
        @Spec
        private CommandSpec spec;

        @picocli.CommandLine.Mixin
        private Target target;

        @Override
        public void run() {
            char[] password = ClientLogin.readPassword(target.name, target.passwordFile, true);
            AccessControl.setPasswordInFile(target.file, target.name, password);
            PrintWriter out = spec.commandLine().getOut();
            out.println("set the password of " + target.name + " in " + target.file + " (a running server reads it "
                    + "when it starts)");
            out.flush();
        }
    }
}
