package io.ferry.bench.experiment;

import java.util.ArrayList;
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

    /** @param label the point, and the series group (a sampling method) where a point has several */
    record Choice(String label, String better, String chose, double betterMs, double otherMs,
            double autoMs) {
        /** Right when most of auto's runs used the faster setting. */
        boolean right() {
            return chose.startsWith(better);
        }

        boolean tie() {
            return otherMs <= betterMs * (1 + TIE);
        }
    }

    /**
     * Auto's choices at a point: one for every auto series, named "auto" or "GROUP auto" (the sampling experiment
     * has one per sampling method), against "GROUP function" and "GROUP data", or "GROUP on" and "GROUP off". None
     * where the point has no auto series.
     */
    static List<Choice> of(Point p) {
        List<Choice> choices = new ArrayList<>();
        for (Measurement auto : p.series()) {
            if (!auto.series().equals("auto") && !auto.series().endsWith(" auto")) {
                continue;
            }
            String group = auto.series().substring(0, auto.series().length() - "auto".length());
            boolean shipping = p.series().stream().anyMatch(m -> m.series().equals(group + "function"));
            Measurement a = p.get(group + (shipping ? "function" : "on"));
            Measurement b = p.get(group + (shipping ? "data" : "off"));
            boolean aWins = a.median() <= b.median();
            String better = shipping ? (aWins ? "function" : "data") : (aWins ? "on" : "off");
            String chose = (shipping ? auto.shipped() : auto.compressed() ? "on" : "off")
                    + (auto.mixed().isEmpty() ? "" : " (runs: " + auto.mixed() + ")");
            choices.add(new Choice((p.label() + " " + group).trim(), better, chose,
                    Math.min(a.median(), b.median()), Math.max(a.median(), b.median()), auto.median()));
        }
        return choices;
    }

    /** The table and the score, or nothing where no point had an auto series. */
    static String markdown(List<Point> points) {
        StringBuilder md = new StringBuilder("### Auto against the better forced setting\n\n");
        md.append("| experiment | point | better forced | its ms | the other's ms | auto chose | auto ms | right |\n");
        md.append("|---|---:|---|---:|---:|---|---:|---|\n");
        int right = 0;
        int tiesMissed = 0;
        int close = 0;
        int n = 0;
        for (Point p : points) {
            for (Choice c : of(p)) {
                n++;
                right += c.right() ? 1 : 0;
                tiesMissed += !c.right() && c.tie() ? 1 : 0;
                close += c.autoMs() <= c.betterMs() * (1 + TIE) ? 1 : 0;
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", p.experiment(),
                        c.label(), c.better(), Report.ms(c.betterMs()), Report.ms(c.otherMs()), c.chose(),
                        Report.ms(c.autoMs()), c.right() ? "yes" : c.tie() ? "no (tie: within 10%)" : "**no**"));
            }
        }
        if (n == 0) {
            return "";
        }
        md.append(String.format(Locale.ROOT, "%nAuto chose the faster setting at %d of %d points (%.0f%%; target ≥ 90%%)"
                + "%s. Auto's own time was within 10%% of the better forced setting's at %d of %d points.%n", right, n,
                100.0 * right / n, tiesMissed == 0 ? "" : String.format(Locale.ROOT,
                        "; %d of the misses were ties, where the forced settings were within 10%% of each other",
                        tiesMissed), close, n));
        return md.toString();
    }
}
