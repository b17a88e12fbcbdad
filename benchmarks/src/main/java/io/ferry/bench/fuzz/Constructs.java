package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** The construct families a run may generate. */
public record Constructs(Set<Construct> enabled) {
    public static final Constructs ALL = new Constructs(EnumSet.allOf(Construct.class));

    public Constructs {
        requireNonNull(enabled, "enabled is null");
        enabled = Collections.unmodifiableSet(enabled.isEmpty() ? EnumSet.noneOf(Construct.class)
                : EnumSet.copyOf(enabled));
    }

    /** A comma-separated list of {@link Construct#cliName()}s, or "all". */
    public static Constructs parse(String list) {
        if (list.isBlank() || list.trim().equalsIgnoreCase("all")) {
            return ALL;
        }
        return new Constructs(Arrays.stream(list.split(",")).map(Construct::fromCliName)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Construct.class))));
    }

    public boolean has(Construct c) {
        return enabled.contains(c);
    }

    @Override
    public String toString() {
        return enabled.stream().map(Construct::cliName).collect(Collectors.joining(","));
    }
}
