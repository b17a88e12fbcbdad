package io.ferry.fabric;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the rdma provider's tests where Maven is not: inside the soft-RoCE VM
 * ({@code integration-tests/soft-roce/rdma-tests.sh}). RDMA is required there, so a test that would skip fails
 * instead. Prints every failure and a last line {@code N passed, N failed}; exits non-zero unless all passed.
 */
public final class RdmaTestRunner {
    private RdmaTestRunner() {
    }

    public static void main(String[] args) {
        System.setProperty("ferry.rdma.required", "true");
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(RdmaFabricTest.class), selectClass(RdmaFabricProcessTest.class)).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);
        TestExecutionSummary s = summary.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        s.printFailuresTo(out, 20);
        long failed = s.getTotalFailureCount() + s.getTestsSkippedCount() + s.getContainersFailedCount();
        out.printf("%d passed, %d failed%n", s.getTestsSucceededCount(), failed);
        System.exit(failed == 0 && s.getTestsSucceededCount() > 0 ? 0 : 1);
    }
}
