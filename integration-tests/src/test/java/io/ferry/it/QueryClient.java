package io.ferry.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A client in a process of its own, for tests that kill it: {@code QueryClient URL SQL} runs SQL through the
 * ferry-jdbc driver on its class path, says "running" once it has sent it, and reads the result to its end.
 */
public final class QueryClient {
    private QueryClient() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
            System.out.println("running");
            System.out.flush();
            try (ResultSet rs = s.executeQuery(args[1])) {
                while (rs.next()) {
                    System.out.println(rs.getString(1));
                }
            }
        }
    }
}
