package io.ferry.server.flight;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/** A Flight SQL result's rows, each value in the form {@code ResultComparison} compares DuckDB's answers in. */
final class ArrowRows {
    private ArrowRows() {
    }

    static List<List<Object>> of(FlightSqlClient sql, FlightInfo info, CallOption... options) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), options)) {
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                for (int i = 0; i < root.getRowCount(); i++) {
                    List<Object> row = new ArrayList<>();
                    for (FieldVector v : root.getFieldVectors()) {
                        row.add(value(v, i));
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    private static Object value(FieldVector v, int i) {
        if (v.isNull(i)) {
            return null;
        }
        if (v instanceof DateDayVector d) {
            return LocalDate.ofEpochDay(d.get(i)).toString();
        }
        Object o = v.getObject(i);
        if (o instanceof Text || o instanceof LocalDateTime) {
            return o.toString();
        }
        if (o instanceof Double d && !Double.isFinite(d)) {
            return d.toString();
        }
        return o instanceof Number ? new BigDecimal(o.toString()) : o;
    }
}
