package io.ferry.server.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

/** Sizes as people write them: {@code 4096}, {@code 64k}, {@code 512MB}, {@code 8g}, {@code 1.5GiB} (powers of 1024). */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(?:i?b)?",
            Pattern.CASE_INSENSITIVE);

    @Override
    public Long convert(String value) {
        Matcher m = SIZE.matcher(value.trim());
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size; write bytes, or a number "
                    + "with k, m, g or t (e.g. 64k, 512m, 8g)");
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        double bytes = Double.parseDouble(m.group(1)) * (1L << shift);
        if (bytes >= Long.MAX_VALUE) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large");
        }
        return (long) bytes;
    }
}
