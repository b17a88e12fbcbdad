package io.ferry.core.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.ipc.BatchIpc;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.BlockWriter;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;

/**
 * The 128-bit form of DECIMALs past 18 digits: its bytes order and compare as the numbers do (what lets hashing,
 * sorting and MIN/MAX use the byte paths), and it survives storage in Arrow's Decimal128 layout and IPC.
 */
class WideDecimalTest {
    private static final BigInteger LIMIT = BigInteger.TEN.pow(38);
    private static final FerryType WIDE = FerryType.decimal(38, 4);
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    /** Values of every magnitude up to 38 digits, both signs, and the edges of a long and of 38 digits. */
    private static List<BigInteger> values(int n, long seed) {
        Random r = new Random(seed);
        List<BigInteger> out = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(),
                BigInteger.valueOf(Long.MAX_VALUE), BigInteger.valueOf(Long.MIN_VALUE),
                BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE), BigInteger.ONE.shiftLeft(64),
                BigInteger.ONE.shiftLeft(64).negate(), LIMIT.subtract(BigInteger.ONE),
                LIMIT.subtract(BigInteger.ONE).negate()));
        while (out.size() < n) {
            BigInteger v = new BigInteger(1 + r.nextInt(126), r).mod(LIMIT);
            out.add(r.nextBoolean() ? v : v.negate());
        }
        return out;
    }

    @Test
    void bytesOrderAndCompareAsTheNumbers() {
        List<BigInteger> numbers = values(2000, 1);
        List<byte[]> encoded = new ArrayList<>();
        for (BigInteger v : numbers) {
            byte[] e = WideDecimal.encode(v);
            assertEquals(v, WideDecimal.toBigInteger(WideDecimal.hi(e, 0), WideDecimal.lo(e, 0)));
            encoded.add(e);
        }
        for (int i = 1; i < numbers.size(); i++) {
            int byNumber = Integer.signum(numbers.get(i - 1).compareTo(numbers.get(i)));
            int byBytes = Integer.signum(Arrays.compareUnsigned(encoded.get(i - 1), encoded.get(i)));
            assertEquals(byNumber, byBytes, numbers.get(i - 1) + " vs " + numbers.get(i));
        }
        List<byte[]> sorted = new ArrayList<>(encoded);
        sorted.sort(Arrays::compareUnsigned);
        List<BigInteger> expected = new ArrayList<>(numbers);
        expected.sort(Comparator.naturalOrder());
        for (int i = 0; i < sorted.size(); i++) {
            assertEquals(expected.get(i), WideDecimal.toBigInteger(WideDecimal.hi(sorted.get(i), 0),
                    WideDecimal.lo(sorted.get(i), 0)));
        }
    }

    @Test
    void fitsIsTheMagnitudeBelowAPowerOfTen() {
        for (BigInteger v : values(3000, 2)) {
            byte[] e = WideDecimal.encode(v);
            for (int p : new int[] {1, 18, 19, 20, 37, 38}) {
                assertEquals(v.abs().compareTo(BigInteger.TEN.pow(p)) < 0,
                        WideDecimal.fits(WideDecimal.hi(e, 0), WideDecimal.lo(e, 0), p), v + " in " + p + " digits");
            }
            assertEquals(v.bitLength() < 64, WideDecimal.isLong(WideDecimal.hi(e, 0), WideDecimal.lo(e, 0)), v.toString());
        }
        assertNull(WideDecimal.encode(BigInteger.ONE.shiftLeft(127)));
    }

    private Batch batch(List<BigInteger> numbers) {
        int n = numbers.size();
        long[] hi = new long[n];
        long[] lo = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            nulls[i] = i % 11 == 5;
            hi[i] = numbers.get(i).shiftRight(64).longValue();
            lo[i] = numbers.get(i).longValue();
        }
        return Batch.of(WideDecimal.of(hi, lo, nulls, n));
    }

    private static BigDecimal at(Vector v, int i) {
        return v.isNull(i) ? null : WideDecimal.get((BytesVector) v, i, WIDE.scale());
    }

    /** Stored as Arrow's Decimal128 (little-endian two's complement): Arrow reads the very values Ferry wrote. */
    @Test
    void storedAsArrowDecimal128() {
        List<BigInteger> numbers = values(700, 3);
        Batch batch = batch(numbers);
        TableSchema schema = TableSchema.of(new Column("w", WIDE, true));
        BlockWriter writer = new BlockWriter(schema);
        int n = numbers.size();
        try (ArrowBuf buf = allocator.buffer(writer.sizeOf(batch, 0, n))) {
            writer.write(batch, 0, n, buf, 0);
            BlockReader reader = new BlockReader(buf, 0).verifyChecksum();
            Vector all = reader.decode(0, WIDE, 0, n);
            int[] positions = {3, -1, 5, 699, 0, 11};
            Vector some = reader.decodeAt(0, WIDE, 0, positions, positions.length);
            try (VectorSchemaRoot root = reader.toArrow(schema, allocator)) {
                DecimalVector arrow = (DecimalVector) root.getVector("w");
                for (int i = 0; i < n; i++) {
                    BigDecimal want = i % 11 == 5 ? null : new BigDecimal(numbers.get(i), WIDE.scale());
                    assertEquals(want, at(all, i), "row " + i);
                    assertEquals(want, arrow.getObject(i), "Arrow's row " + i);
                }
            }
            for (int i = 0; i < positions.length; i++) {
                assertEquals(positions[i] < 0 ? null : at(all, positions[i]), at(some, i), "position " + i);
            }
        }
    }

    @Test
    void travelsThroughIpc() {
        List<BigInteger> numbers = values(5000, 4);
        List<Batch> in = List.of(batch(numbers.subList(0, 4096)), batch(numbers.subList(4096, 5000)));
        for (boolean compress : new boolean[] {false, true}) {
            byte[] bytes = BatchIpc.write(in, List.of(WIDE), compress, allocator);
            List<Batch> out = BatchIpc.read(bytes, 0, bytes.length, List.of(WIDE), allocator);
            assertEquals(in.size(), out.size());
            for (int b = 0; b < in.size(); b++) {
                for (int i = 0; i < in.get(b).rowCount(); i++) {
                    assertEquals(at(in.get(b).column(0), i), at(out.get(b).column(0), i));
                }
            }
            assertTrue(bytes.length > 0);
        }
    }
}
