package io.ferry.bench.experiment;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Where the faster of function and data shipping changes along a sweep whose x grows the way that favours data
 * shipping: a larger result (ship-or-not Fig. 1), a busier worker (Fig. 2), more queries at once (Fig. 3).
 */
final class Crossing {
    private Crossing() {
    }

    /**
     * The cross-over in words: the last point at which function shipping won, and the first from which data shipping
     * won at every later point; or, when noise made the winners alternate, a note that there were exceptions.
     *
     * @param group the series' group ("" or e.g. "SYSTEM "): its "function" and "data" series are compared
     * @param at    a point in words, e.g. "a 3.8 MiB result"
     * @param paper what the paper found, in parentheses after the sentence; empty for none
     */
    static String describe(List<Point> points, String group, Function<Point, String> at, String paper) {
        int lastFs = -1;
        for (int i = 0; i < points.size(); i++) {
            if (functionWins(points.get(i), group)) {
                lastFs = i;
            }
        }
        String note = paper.isEmpty() ? "" : " (paper: " + paper + ")";
        if (lastFs == points.size() - 1) {
            return "Function shipping was faster at the last point measured, " + at.apply(points.get(lastFs)) + note
                    + ".";
        }
        if (lastFs < 0) {
            return "Data shipping was faster at every point measured" + note + ".";
        }
        boolean clean = true;
        for (int i = 0; i < lastFs; i++) {
            clean &= functionWins(points.get(i), group);
        }
        return String.format(Locale.ROOT, "Cross-over: function shipping faster %s %s, data shipping from %s on%s.",
                clean ? "up to" : "(with exceptions below) up to", at.apply(points.get(lastFs)),
                at.apply(points.get(lastFs + 1)), note);
    }

    static boolean functionWins(Point p, String group) {
        return p.get(group + "function").median() <= p.get(group + "data").median();
    }
}
