package io.ferry.server.data;

import io.ferry.core.types.CivilCalendar;
import io.ferry.core.vector.BatchBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.Distribution;
import io.trino.tpch.Distributions;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.Supplier;
import io.trino.tpch.SupplierGenerator;

/**
 * The Star Schema Benchmark (P. O'Neil, E. O'Neil, X. Chen, "Star Schema Benchmark", rev. 3, 2009) derived from the
 * TPC-H generator (io.trino.tpch), as the SSB specification itself derives it from TPC-H's dbgen. The I-Store paper
 * runs its multi-join experiments on this schema (section 5.1, figure 7a, at SF 100).
 *
 * <h2>Tables and sizes</h2>
 * <ul>
 * <li>{@code lineorder}: TPC-H lineitem joined with its order, about 6,000,000·SF rows (1–7 lines per order).
 * <li>{@code customer}: 30,000·SF rows; {@code supplier}: 2,000·SF rows (at least one each).
 * <li>{@code part}: 200,000·floor(1 + log2 SF) rows for SF ≥ 1, and 200,000·SF below 1 (as ssb-dbgen does; the
 * spec's formula is meaningless there).
 * <li>{@code dwdate}: 2,556 days from 1992-01-01 — ssb-dbgen's count, which stops at 1998-12-30 (seven calendar
 * years have 2,557 days). No lineorder date lies after 1998-10-31, so every date key still joins.
 * </ul>
 *
 * <h2>How rows are derived</h2>
 * <ul>
 * <li>lineorder: lo_orderkey, lo_linenumber, lo_quantity, lo_discount and lo_tax (whole percent), lo_shipmode and
 * lo_commitdate from the lineitem; lo_orderdate, lo_orderpriority, lo_shippriority and lo_ordtotalprice from its
 * order. TPC-H keys range over TPC-H's larger dimensions (150,000·SF customers, 10,000·SF suppliers,
 * 200,000·SF parts), so they are folded onto SSB's: {@code key' = (key - 1) mod n + 1}. For customers n divides
 * TPC-H's count and (when it is a multiple of 3, as at every usual scale) keeps the residue mod 3, so — as in
 * ssb-dbgen — every third customer places no orders.
 * <li>Money is in cents, as ssb-dbgen prints it: lo_extendedprice = quantity × retail price;
 * lo_revenue = lo_extendedprice × (100 − lo_discount) / 100 (integer division, as in ssb-dbgen);
 * lo_supplycost = 6 × retail price / 10 (ssb-dbgen's rule, the retail price taken from the lineitem);
 * lo_ordtotalprice = TPC-H's o_totalprice.
 * <li>Types: keys, dates, quantity, discount, tax, size and the date parts INTEGER; money BIGINT; text VARCHAR;
 * every column NOT NULL. lo_orderkey alone is BIGINT: TPC-H's sparse order keys pass 2^31 from about SF 360.
 * Dates are {@code yyyymmdd} integers (the SSB date key).
 * <li>customer/supplier: name, address, market segment from TPC-H; nation from TPC-H's nation key, names and
 * regions upper-case as in TPC-H ('UNITED STATES', 'AMERICA'); the phone's country code is 10 + nation key;
 * the city is the nation name cut or space-padded to 9 characters plus a digit 0–9 chosen by a hash of the key
 * (ssb-dbgen draws it at random): 'UNITED KI1', 'PERU     7'.
 * <li>part: p_color is the first colour of TPC-H's name and p_name its first two; TPC-H's Manufacturer#M and
 * Brand#MN become p_mfgr 'MFGR#M' and p_category 'MFGR#MN'; p_brand1 appends a number 01–40 chosen by a hash of the
 * key ('MFGR#1101' .. 'MFGR#5540', nine characters as the spec sizes it); type, size, container from TPC-H.
 * <li>dwdate: English day and month names, d_daynuminweek 1 = Sunday, d_weeknuminyear = day of year / 7 + 1,
 * selling seasons and holidays as in ssb-dbgen; the flags are INTEGER 0/1. Two ssb-dbgen bugs are not copied:
 * its misspelt month names and its inverted last-day-of-month flag.
 * </ul>
 *
 * <h2>Rows pinned so that every query matches at small scale</h2>
 * Q3.2–Q3.4 pick one nation or 2 of 250 cities on both the customer and the supplier side (Q3.4 also one month):
 * under uniform data Q3.4 expects about 0.05 rows at SF 0.01 (about 5 at SF 1), and at SF 0.01 TPC-H happens to
 * give the United States only two customers, both of whom place no orders. So that all thirteen queries return
 * rows at every scale the engine is tested at, two key pairs are pinned: customer 1 and supplier 1 are in
 * 'UNITED KI1' (UNITED KINGDOM, EUROPE), customer 2 and supplier 2 in 'UNITED ST1' (UNITED STATES, AMERICA); the
 * first order dated December 1997 is placed by customer 1 with every line supplied by supplier 1, and the first
 * order dated 1992–1997 that is not that one by customer 2 with every line supplied by supplier 2. This touches two
 * orders whatever the scale; everything else follows the rules above.
 *
 * <p>Every value is a pure function of the scale factor: two runs produce identical tables.
 */
public final class SsbGenerator {
    public static final String LINEORDER = "lineorder";
    public static final String CUSTOMER = "customer";
    public static final String SUPPLIER = "supplier";
    public static final String PART = "part";
    public static final String DWDATE = "dwdate";
    public static final List<String> TABLES = List.of(LINEORDER, CUSTOMER, SUPPLIER, PART, DWDATE);

    public static final double MIN_SCALE = 0.0001;
    public static final double MAX_SCALE = 10_000;
    public static final int DATE_ROWS = 2556;

    private static final TableSchema LINEORDER_SCHEMA = schemaOf(
            "lo_orderkey BIGINT", "lo_linenumber INTEGER", "lo_custkey INTEGER", "lo_partkey INTEGER",
            "lo_suppkey INTEGER", "lo_orderdate INTEGER", "lo_orderpriority VARCHAR", "lo_shippriority INTEGER",
            "lo_quantity INTEGER", "lo_extendedprice BIGINT", "lo_ordtotalprice BIGINT", "lo_discount INTEGER",
            "lo_revenue BIGINT", "lo_supplycost BIGINT", "lo_tax INTEGER", "lo_commitdate INTEGER",
            "lo_shipmode VARCHAR");
    private static final TableSchema CUSTOMER_SCHEMA = schemaOf(
            "c_custkey INTEGER", "c_name VARCHAR", "c_address VARCHAR", "c_city VARCHAR", "c_nation VARCHAR",
            "c_region VARCHAR", "c_phone VARCHAR", "c_mktsegment VARCHAR");
    private static final TableSchema SUPPLIER_SCHEMA = schemaOf(
            "s_suppkey INTEGER", "s_name VARCHAR", "s_address VARCHAR", "s_city VARCHAR", "s_nation VARCHAR",
            "s_region VARCHAR", "s_phone VARCHAR");
    private static final TableSchema PART_SCHEMA = schemaOf(
            "p_partkey INTEGER", "p_name VARCHAR", "p_mfgr VARCHAR", "p_category VARCHAR", "p_brand1 VARCHAR",
            "p_color VARCHAR", "p_type VARCHAR", "p_size INTEGER", "p_container VARCHAR");
    private static final TableSchema DWDATE_SCHEMA = schemaOf(
            "d_datekey INTEGER", "d_date VARCHAR", "d_dayofweek VARCHAR", "d_month VARCHAR", "d_year INTEGER",
            "d_yearmonthnum INTEGER", "d_yearmonth VARCHAR", "d_daynuminweek INTEGER", "d_daynuminmonth INTEGER",
            "d_daynuminyear INTEGER", "d_monthnuminyear INTEGER", "d_weeknuminyear INTEGER",
            "d_sellingseason VARCHAR", "d_lastdayinweekfl INTEGER", "d_lastdayinmonthfl INTEGER",
            "d_holidayfl INTEGER", "d_weekdayfl INTEGER");

    /** Nations of the pinned customer and supplier keys 1 and 2: UNITED KINGDOM and UNITED STATES. */
    private static final int[] PINNED_NATIONS = {23, 24};
    private static final int PINNED_CITY_DIGIT = 1;
    private static final long DECEMBER_1997 = CivilCalendar.epochDay(1997, 12, 1);
    private static final long FIRST_DAY = CivilCalendar.epochDay(1992, 1, 1);
    private static final long LAST_DAY_OF_1997 = CivilCalendar.epochDay(1997, 12, 31);
    private static final long CUSTOMER_CITY_SALT = 0x5EED_C057L;
    private static final long SUPPLIER_CITY_SALT = 0x5EED_5000L;
    private static final long BRAND_SALT = 0x5EED_B4A0L;

    /** ssb-dbgen's holidays, as month * 100 + day. */
    private static final int[] HOLIDAYS = {1224, 101, 220, 420, 520, 720, 820, 920, 1020, 1120};

    private static final String[] NATIONS = new String[25];
    private static final String[] NATION_REGIONS = new String[25];

    static {
        // From TPC-H's distributions rather than its Nation/RegionGenerator, which would build the 300 MB text pool
        // for comments just to name 25 nations. A nation's key is its index, its weight the key of its region.
        Distribution nations = Distributions.getDefaultDistributions().getNations();
        Distribution regions = Distributions.getDefaultDistributions().getRegions();
        for (int key = 0; key < NATIONS.length; key++) {
            NATIONS[key] = nations.getValue(key);
            NATION_REGIONS[key] = regions.getValue(nations.getWeight(key));
        }
    }

    private final double scale;
    private final long customers;
    private final long suppliers;
    private final long parts;

    public SsbGenerator(double scaleFactor) {
        if (!(scaleFactor >= MIN_SCALE && scaleFactor <= MAX_SCALE)) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the SSB scale factor must be between "
                    + MIN_SCALE + " and " + MAX_SCALE + " (1 is about 6 million lineorder rows), got " + scaleFactor);
        }
        this.scale = scaleFactor;
        this.customers = Math.max(1, (long) (30_000 * scaleFactor));
        this.suppliers = Math.max(1, (long) (2_000 * scaleFactor));
        if (scaleFactor < 1) {
            this.parts = Math.max(1, (long) (200_000 * scaleFactor));
        } else {
            // floor(log2 SF) for SF >= 1 without the rounding of Math.log at powers of two.
            int log2 = 63 - Long.numberOfLeadingZeros((long) scaleFactor);
            this.parts = 200_000L * (1 + log2);
        }
    }

    public double scaleFactor() {
        return scale;
    }

    /** The schema of one of the {@link #TABLES}. */
    public static TableSchema schema(String table) {
        return switch (table) {
            case LINEORDER -> LINEORDER_SCHEMA;
            case CUSTOMER -> CUSTOMER_SCHEMA;
            case SUPPLIER -> SUPPLIER_SCHEMA;
            case PART -> PART_SCHEMA;
            case DWDATE -> DWDATE_SCHEMA;
            default -> throw unknownTable(table);
        };
    }

    /** Rows the table will have; for lineorder an estimate (four lines per order, TPC-H's mean). */
    public long rowCount(String table) {
        return switch (table) {
            case LINEORDER -> 4 * orderCount();
            case CUSTOMER -> customers;
            case SUPPLIER -> suppliers;
            case PART -> parts;
            case DWDATE -> DATE_ROWS;
            default -> throw unknownTable(table);
        };
    }

    /** Creates and fills all five tables; if one fails, those this call created are dropped again. */
    public void load(Catalog catalog, ProgressListener progress) {
        loadPartitioned(catalog, null, progress);
    }

    /**
     * As above, each table partitioned by the keys of {@code partitionBy} it has ({@link PartitionScheme#parseFor}:
     * {@code custkey:4,partkey:2} splits lineorder 8 ways, customer 4, part 2); null for none.
     */
    public void loadPartitioned(Catalog catalog, String partitionBy, ProgressListener progress) {
        List<String> created = new ArrayList<>();
        boolean done = false;
        try {
            for (String table : TABLES) {
                load(catalog, table, PartitionScheme.parseFor(partitionBy, schema(table)), progress);
                created.add(table);
            }
            done = true;
        } finally {
            if (!done) {
                for (String table : created) {
                    catalog.drop(table, true);
                }
            }
        }
    }

    /**
     * As {@link #loadPartitioned}, for those of the five tables {@code catalog} does not have (a data directory kept
     * the others); the ones it has are left as they are.
     */
    public void loadMissing(Catalog catalog, String partitionBy, ProgressListener progress) {
        for (String table : TABLES) {
            if (catalog.get(table) == null) {
                load(catalog, table, PartitionScheme.parseFor(partitionBy, schema(table)), progress);
            }
        }
    }

    /** Creates table {@code table} (named as in {@link #TABLES}) and fills it; nothing is left behind on failure. */
    public Table load(Catalog catalog, String table, ProgressListener progress) {
        return load(catalog, table, PartitionScheme.NONE, progress);
    }

    private Table load(Catalog catalog, String table, PartitionScheme partitioning, ProgressListener progress) {
        Table created = catalog.createToFill(table, schema(table));
        boolean committed = false;
        catalog.partition(created, partitioning, Placement.NAM);
        try (TableAppender appender = created.appender()) {
            generate(table, appender::append, progress);
            appender.commit();
            committed = true;
        } finally {
            if (!committed) {
                catalog.drop(created.name(), true);
            }
        }
        return created;
    }

    /** Writes {@code <table>.csv} with a header for each of the five tables into {@code directory}. */
    public void writeCsv(Path directory, ProgressListener progress) throws IOException {
        for (String table : TABLES) {
            try (CsvExporter csv = CsvExporter.open(directory.resolve(table + ".csv"), schema(table))) {
                generate(table, csv::write, progress);
            }
        }
    }

    /** Streams the rows of {@code table} to {@code sink} in batches of at most 4096 rows; returns the row count. */
    public long generate(String table, Consumer<Batch> sink, ProgressListener progress) {
        BatchBuilder batch = new BatchBuilder(schema(table), Vector.MAX_ROWS);
        progress.start(table, rowCount(table), ProgressListener.Unit.ROWS);
        try {
            return switch (table) {
                case LINEORDER -> generateLineorder(batch, sink, progress);
                case CUSTOMER -> generateCustomers(batch, sink, progress);
                case SUPPLIER -> generateSuppliers(batch, sink, progress);
                case PART -> generateParts(batch, sink, progress);
                case DWDATE -> generateDates(batch, sink, progress);
                default -> throw unknownTable(table);
            };
        } finally {
            progress.finish();
        }
    }

    private long orderCount() {
        return (long) (OrderGenerator.SCALE_BASE * scale);
    }

    private long generateLineorder(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress) {
        Iterator<Order> orders = new OrderGenerator(scale, 1, 1).iterator();
        Iterator<LineItem> lines = new LineItemGenerator(scale, 1, 1).iterator();
        Map<String, byte[]> utf8 = new HashMap<>();
        LineItem line = lines.hasNext() ? lines.next() : null;
        boolean ukPinned = false;
        boolean usPinned = false;
        long rows = 0;
        while (orders.hasNext()) {
            Order order = orders.next();
            int orderDay = order.getOrderDate();
            long pinned = 0;
            if (!ukPinned && orderDay >= DECEMBER_1997 && orderDay <= LAST_DAY_OF_1997) {
                ukPinned = true;
                pinned = 1;
            } else if (!usPinned && orderDay >= FIRST_DAY && orderDay <= LAST_DAY_OF_1997) {
                usPinned = true;
                pinned = 2;
            }
            long custkey = fold(pinned != 0 ? pinned : order.getCustomerKey(), customers);
            long pinnedSupplier = pinned != 0 ? fold(pinned, suppliers) : 0;
            int orderDate = CivilCalendar.yyyymmdd(orderDay);
            byte[] priority = utf8.computeIfAbsent(order.getOrderPriority(), SsbGenerator::bytes);
            long totalPrice = order.getTotalPriceInCents();
            for (; line != null && line.getOrderKey() == order.getOrderKey();
                    line = lines.hasNext() ? lines.next() : null) {
                long quantity = line.getQuantity();
                long extendedPrice = line.getExtendedPriceInCents();
                long discount = line.getDiscountPercent();
                long retailPrice = extendedPrice / quantity;
                batch.setLong(0, order.getOrderKey());
                batch.setLong(1, line.getLineNumber());
                batch.setLong(2, custkey);
                batch.setLong(3, fold(line.getPartKey(), parts));
                batch.setLong(4, pinned != 0 ? pinnedSupplier : fold(line.getSupplierKey(), suppliers));
                batch.setLong(5, orderDate);
                batch.appendBytes(6, priority);
                batch.setLong(7, order.getShipPriority());
                batch.setLong(8, quantity);
                batch.setLong(9, extendedPrice);
                batch.setLong(10, totalPrice);
                batch.setLong(11, discount);
                batch.setLong(12, extendedPrice * (100 - discount) / 100);
                batch.setLong(13, 6 * retailPrice / 10);
                batch.setLong(14, line.getTaxPercent());
                batch.setLong(15, CivilCalendar.yyyymmdd(line.getCommitDate()));
                batch.appendBytes(16, utf8.computeIfAbsent(line.getShipMode(), SsbGenerator::bytes));
                rows = endRow(batch, sink, progress, rows);
            }
        }
        if (line != null) {
            throw new IllegalStateException("TPC-H lineitem for order " + line.getOrderKey() + " has no order");
        }
        return flush(batch, sink, progress, rows);
    }

    private long generateCustomers(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress) {
        Iterator<Customer> it = new CustomerGenerator(scale, 1, 1).iterator();
        long rows = 0;
        for (long key = 1; key <= customers; key++) {
            Customer c = it.next();
            boolean pinned = key <= PINNED_NATIONS.length;
            int nation = pinned ? PINNED_NATIONS[(int) key - 1] : (int) c.getNationKey();
            int city = pinned ? PINNED_CITY_DIGIT : (int) hashed(key, CUSTOMER_CITY_SALT, 10);
            batch.setLong(0, key);
            batch.appendBytes(1, bytes(c.getName()));
            batch.appendBytes(2, bytes(c.getAddress()));
            batch.appendBytes(3, bytes(city(nation, city)));
            batch.appendBytes(4, bytes(NATIONS[nation]));
            batch.appendBytes(5, bytes(NATION_REGIONS[nation]));
            batch.appendBytes(6, bytes(phone(nation, c.getPhone())));
            batch.appendBytes(7, bytes(c.getMarketSegment()));
            rows = endRow(batch, sink, progress, rows);
        }
        return flush(batch, sink, progress, rows);
    }

    private long generateSuppliers(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress) {
        Iterator<Supplier> it = new SupplierGenerator(scale, 1, 1).iterator();
        long rows = 0;
        for (long key = 1; key <= suppliers; key++) {
            Supplier s = it.next();
            boolean pinned = key <= PINNED_NATIONS.length;
            int nation = pinned ? PINNED_NATIONS[(int) key - 1] : (int) s.getNationKey();
            int city = pinned ? PINNED_CITY_DIGIT : (int) hashed(key, SUPPLIER_CITY_SALT, 10);
            batch.setLong(0, key);
            batch.appendBytes(1, bytes(s.getName()));
            batch.appendBytes(2, bytes(s.getAddress()));
            batch.appendBytes(3, bytes(city(nation, city)));
            batch.appendBytes(4, bytes(NATIONS[nation]));
            batch.appendBytes(5, bytes(NATION_REGIONS[nation]));
            batch.appendBytes(6, bytes(phone(nation, s.getPhone())));
            rows = endRow(batch, sink, progress, rows);
        }
        return flush(batch, sink, progress, rows);
    }

    private long generateParts(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress) {
        Iterator<Part> it = new PartGenerator(scale, 1, 1).iterator();
        long rows = 0;
        for (long key = 1; key <= parts; key++) {
            Part p = it.next();
            String[] colors = p.getName().split(" ");
            String mfgr = p.getManufacturer();
            String brand = p.getBrand();
            String category = "MFGR#" + mfgr.charAt(mfgr.length() - 1) + brand.charAt(brand.length() - 1);
            long brandNumber = hashed(key, BRAND_SALT, 40) + 1;
            batch.setLong(0, key);
            batch.appendBytes(1, bytes(colors[0] + " " + colors[1]));
            batch.appendBytes(2, bytes("MFGR#" + mfgr.charAt(mfgr.length() - 1)));
            batch.appendBytes(3, bytes(category));
            batch.appendBytes(4, bytes(category + (brandNumber < 10 ? "0" : "") + brandNumber));
            batch.appendBytes(5, bytes(colors[0]));
            batch.appendBytes(6, bytes(p.getType()));
            batch.setLong(7, p.getSize());
            batch.appendBytes(8, bytes(p.getContainer()));
            rows = endRow(batch, sink, progress, rows);
        }
        return flush(batch, sink, progress, rows);
    }

    private long generateDates(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress) {
        LocalDate date = LocalDate.of(1992, 1, 1);
        long rows = 0;
        for (int i = 0; i < DATE_ROWS; i++, date = date.plusDays(1)) {
            int year = date.getYear();
            int month = date.getMonthValue();
            int day = date.getDayOfMonth();
            String monthName = date.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            DayOfWeek weekday = date.getDayOfWeek();
            int dayNumInWeek = weekday.getValue() % 7 + 1;
            batch.setLong(0, year * 10_000L + month * 100L + day);
            batch.appendBytes(1, bytes(monthName + " " + day + ", " + year));
            batch.appendBytes(2, bytes(weekday.getDisplayName(TextStyle.FULL, Locale.ENGLISH)));
            batch.appendBytes(3, bytes(monthName));
            batch.setLong(4, year);
            batch.setLong(5, year * 100L + month);
            batch.appendBytes(6, bytes(monthName.substring(0, 3) + year));
            batch.setLong(7, dayNumInWeek);
            batch.setLong(8, day);
            batch.setLong(9, date.getDayOfYear());
            batch.setLong(10, month);
            batch.setLong(11, date.getDayOfYear() / 7 + 1);
            batch.appendBytes(12, bytes(sellingSeason(month)));
            batch.setLong(13, weekday == DayOfWeek.SATURDAY ? 1 : 0);
            batch.setLong(14, day == date.lengthOfMonth() ? 1 : 0);
            batch.setLong(15, isHoliday(month, day) ? 1 : 0);
            batch.setLong(16, weekday == DayOfWeek.SATURDAY || weekday == DayOfWeek.SUNDAY ? 0 : 1);
            rows = endRow(batch, sink, progress, rows);
        }
        return flush(batch, sink, progress, rows);
    }

    private static long endRow(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress, long rows) {
        batch.endRow();
        if (batch.isFull()) {
            return flush(batch, sink, progress, rows);
        }
        return rows;
    }

    /** Hands over the rows built so far; returns the running total of rows handed over. */
    private static long flush(BatchBuilder batch, Consumer<Batch> sink, ProgressListener progress, long rows) {
        int n = batch.rows();
        if (n > 0) {
            sink.accept(batch.build());
            rows += n;
            progress.update(rows);
        }
        return rows;
    }

    /** Folds a TPC-H key in [1, N) onto [1, n]. */
    private static long fold(long key, long n) {
        return (key - 1) % n + 1;
    }

    /** The nation name cut or padded to nine characters, then the city digit. */
    private static String city(int nation, int digit) {
        String name = NATIONS[nation];
        StringBuilder city = new StringBuilder(10).append(name, 0, Math.min(9, name.length()));
        while (city.length() < 9) {
            city.append(' ');
        }
        return city.append((char) ('0' + digit)).toString();
    }

    /** TPC-H phones start with 10 + nation key; keep that true for the pinned rows. */
    private static String phone(int nation, String tpchPhone) {
        return (10 + nation) + tpchPhone.substring(2);
    }

    private static String sellingSeason(int month) {
        return switch (month) {
            case 1, 2, 3 -> "Winter";
            case 4 -> "Spring";
            case 5, 6, 7, 8 -> "Summer";
            case 9, 10 -> "Fall";
            default -> "Christmas";
        };
    }

    private static boolean isHoliday(int month, int day) {
        int md = month * 100 + day;
        for (int h : HOLIDAYS) {
            if (h == md) {
                return true;
            }
        }
        return false;
    }

    /**
     * A number in [0, n) that looks random but is fixed by (key, salt): SplitMix64's finalizer, so that city digits
     * and brand numbers are spread like ssb-dbgen's random draws without any generator state.
     */
    private static long hashed(long key, long salt, long n) {
        long z = key * 0x9E3779B97F4A7C15L + salt;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return Long.remainderUnsigned(z ^ (z >>> 31), n);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static TableSchema schemaOf(String... columns) {
        List<Column> list = new ArrayList<>(columns.length);
        for (String c : columns) {
            int space = c.indexOf(' ');
            FerryType type = switch (c.substring(space + 1)) {
                case "INTEGER" -> FerryType.INTEGER;
                case "BIGINT" -> FerryType.BIGINT;
                default -> FerryType.VARCHAR;
            };
            list.add(new Column(c.substring(0, space), type, false));
        }
        return new TableSchema(list);
    }

    private static FerryException unknownTable(String table) {
        return new FerryException(SqlStates.UNDEFINED_TABLE, "SSB has no table '" + table + "'; its tables are "
                + String.join(", ", TABLES));
    }
}
