package io.ferry.bench.experiment;

import java.util.List;

/** A point of a sweep: its label, its value on the chart's x axis, and each series measured there. */
record Point(String experiment, String label, double x, List<Measurement> series) {
    Measurement get(String name) {
        for (Measurement m : series) {
            if (m.series().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no series " + name + " at " + label);
    }
}
