package io.ferry.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class ByteSizeConverterTest {
    private final ByteSizeConverter converter = new ByteSizeConverter();

    @Test
    void sizesInPowersOf1024() {
        assertEquals(4096L, converter.convert("4096"));
        assertEquals(64L << 10, converter.convert("64k"));
        assertEquals(512L << 20, converter.convert("512MB"));
        assertEquals(8L << 30, converter.convert("8g"));
        assertEquals(3L << 29, converter.convert("1.5GiB"));
        assertEquals(2L << 40, converter.convert(" 2T "));
    }

    @Test
    void nonsenseIsRejectedWithAnExample() {
        for (String bad : new String[] {"", "-1", "8x", "g", "1.2.3m"}) {
            CommandLine.TypeConversionException e = assertThrows(CommandLine.TypeConversionException.class,
                    () -> converter.convert(bad), bad);
            assertEquals(true, e.getMessage().contains("e.g."), e.getMessage());
        }
    }
}
