package io.ferry.bench.experiment;

import java.util.List;
import java.util.Locale;

/**
 * Auto against the better forced setting at every point of the sweeps: the shipping mode where function and data
 * shipping were both measured, the compression where off and on were. The target: ≥ 90% right choices.
 */
final class AutoChoices {
    /** Forced times closer than this are a tie: on this machine runs differ by that much. */
    static final double TIE = 0.10;

    private AutoChoices() {
    }

    record Choice(Point point, String better, String chose, double betterMs, double otherMs, double autoMs) {
        /** Right when most of auto's runs used the faster setting. */
        boolean right() {
            return chose.startsWith(better);
        }

        boolean tie() {
            return otherMs <= betterMs * (1 + TIE);
        }
    }

    static Choice of(Point p) {
        boolean shipping = p.series().stream().anyMatch(m -> m.series().equals("function"));
        Measurement a = p.get(shipping ? "function" : "on");
        Measurement b = p.get(shipping ? "data" : "off");
        Measurement auto = p.get("auto");
        boolean aWins = a.median() <= b.median();
        String better = shipping ? (aWins ? "function" : "data") : (aWins ? "on" : "off");
        String chose = (shipping ? auto.shipped() : auto.compressed() ? "on" : "off")
                + (auto.mixed().isEmpty() ? "" : " (runs: " + auto.mixed() + ")");
        return new Choice(p, better, chose, Math.min(a.median(), b.median()), Math.max(a.median(), b.median()),
                auto.median());
    }

    static String markdown(List<Point> points) {
        StringBuilder md = new StringBuilder("### Auto against the better forced setting\n\n");
        md.append("| experiment | point | better forced | its ms | the other's ms | auto chose | auto ms | right |\n");
        md.append("|---|---:|---|---:|---:|---|---:|---|\n");
        int right = 0;
        int tiesMissed = 0;
        int close = 0;
        for (Point p : points) {
            Choice c = of(p);
            right += c.right() ? 1 : 0;
            tiesMissed += !c.right() && c.tie() ? 1 : 0;
            close += c.autoMs() <= c.betterMs() * (1 + TIE) ? 1 : 0;
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", p.experiment(),
                    p.label(), c.better(), Report.ms(c.betterMs()), Report.ms(c.otherMs()), c.chose(),
                    Report.ms(c.autoMs()), c.right() ? "yes" : c.tie() ? "no (tie: within 10%)" : "**no**"));
        }
        int n = points.size();
        md.append(String.format(Locale.ROOT, "%nAuto chose the faster setting at %d of %d points (%.0f%%; target ≥ 90%%)"
                + "%s. Auto's own time was within 10%% of the better forced setting's at %d of %d points.%n", right, n,
                n == 0 ? 0 : 100.0 * right / n, tiesMissed == 0 ? "" : String.format(Locale.ROOT,
                        "; %d of the misses were ties, where the forced settings were within 10%% of each other",
                        tiesMissed), close, n));
        return md.toString();
    }
}
