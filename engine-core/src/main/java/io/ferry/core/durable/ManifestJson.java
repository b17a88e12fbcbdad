package io.ferry.core.durable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.ferry.core.storage.DataFile;
import io.ferry.core.storage.Manifest;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.UniqueConstraint;
import io.ferry.core.storage.ViewDefinition;
import io.ferry.core.storage.ZoneMapIndex;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;

/**
 * A {@link Manifest} as the JSON of a data directory's {@code manifest.json} (docs/storage.md): written by hand
 * field by field, so that the file's shape is Ferry's and not whatever a mapper makes of a record.
 */
final class ManifestJson {
    /** The manifest format this code writes; a newer one is refused rather than half understood. */
    static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ManifestJson() {
    }

    static byte[] write(Manifest m) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("generation", m.generation());
        ArrayNode tables = root.putArray("tables");
        for (Manifest.TableEntry t : m.tables().values()) {
            ObjectNode o = tables.addObject();
            o.put("id", t.id());
            o.put("name", t.name());
            writeColumns(o.putArray("columns"), t.schema());
            ArrayNode constraints = o.putArray("constraints");
            for (UniqueConstraint c : t.constraints()) {
                ObjectNode co = constraints.addObject();
                co.put("name", c.name());
                co.put("primaryKey", c.primaryKey());
                ArrayNode cols = co.putArray("columns");
                c.columns().forEach(cols::add);
            }
            ArrayNode indexes = o.putArray("indexes");
            for (ZoneMapIndex i : t.indexes()) {
                indexes.addObject().put("name", i.name()).put("column", i.column());
            }
            o.put("partitionBy", t.partitionBy());
            o.put("placement", t.placement().name());
            if (t.filling()) {
                o.put("filling", true);
            }
            ArrayNode files = o.putArray("files");
            for (DataFile f : t.files()) {
                ObjectNode fo = files.addObject().put("name", f.name()).put("bytes", f.bytes()).put("crc", f.crc())
                        .put("rows", f.rows()).put("blocks", f.blocks());
                if (!f.locations().isEmpty()) {
                    ArrayNode at = fo.putArray("locations");
                    f.locations().forEach(at::add);
                }
            }
        }
        ArrayNode views = root.putArray("views");
        for (ViewDefinition v : m.views().values()) {
            ObjectNode o = views.addObject();
            o.put("name", v.name());
            o.put("sql", v.sql());
            writeColumns(o.putArray("columns"), v.schema());
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException("a manifest cannot be written as JSON", e);
        }
    }

    private static void writeColumns(ArrayNode out, TableSchema schema) {
        for (Column c : schema.columns()) {
            ObjectNode o = out.addObject();
            o.put("name", c.name());
            o.put("type", c.type().kind().name());
            if (c.type().kind() == TypeKind.DECIMAL || c.type().kind() == TypeKind.VARCHAR) {
                o.put("precision", c.type().precision());
                o.put("scale", c.type().scale());
            }
            o.put("nullable", c.nullable());
        }
    }

    /** Reads a manifest; throws IllegalArgumentException saying what is wrong with it. */
    static Manifest read(byte[] bytes) throws IOException {
        JsonNode root = JSON.readTree(bytes);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("it is not a JSON object");
        }
        int format = required(root, "format").asInt();
        if (format != FORMAT) {
            throw new IllegalArgumentException("it is format " + format + "; this Ferry reads format " + FORMAT
                    + (format > FORMAT ? " (it was written by a newer Ferry)" : ""));
        }
        Map<String, Manifest.TableEntry> tables = new LinkedHashMap<>();
        for (JsonNode t : required(root, "tables")) {
            TableSchema schema = readColumns(required(t, "columns"));
            List<UniqueConstraint> constraints = new ArrayList<>();
            for (JsonNode c : required(t, "constraints")) {
                List<Integer> cols = new ArrayList<>();
                required(c, "columns").forEach(n -> cols.add(n.asInt()));
                constraints.add(new UniqueConstraint(text(c, "name"), required(c, "primaryKey").asBoolean(), cols));
            }
            List<ZoneMapIndex> indexes = new ArrayList<>();
            for (JsonNode i : required(t, "indexes")) {
                indexes.add(new ZoneMapIndex(text(i, "name"), required(i, "column").asInt()));
            }
            List<DataFile> files = new ArrayList<>();
            for (JsonNode f : required(t, "files")) {
                List<String> locations = new ArrayList<>();
                f.path("locations").forEach(l -> locations.add(l.asText()));
                files.add(new DataFile(text(f, "name"), required(f, "bytes").asLong(), required(f, "crc").asInt(),
                        required(f, "rows").asLong(), required(f, "blocks").asInt(), locations));
            }
            Manifest.TableEntry entry = new Manifest.TableEntry(required(t, "id").asLong(), text(t, "name"), schema,
                    constraints, indexes, text(t, "partitionBy"), Placement.valueOf(text(t, "placement")), files,
                    t.path("filling").asBoolean(false));
            tables.put(entry.name(), entry);
        }
        Map<String, ViewDefinition> views = new LinkedHashMap<>();
        for (JsonNode v : required(root, "views")) {
            ViewDefinition view = new ViewDefinition(text(v, "name"), text(v, "sql"),
                    readColumns(required(v, "columns")));
            views.put(view.name(), view);
        }
        return new Manifest(required(root, "generation").asLong(), tables, views);
    }

    private static TableSchema readColumns(JsonNode columns) {
        List<Column> out = new ArrayList<>();
        for (JsonNode c : columns) {
            TypeKind kind = TypeKind.valueOf(text(c, "type"));
            FerryType type = new FerryType(kind, c.path("precision").asInt(0), c.path("scale").asInt(0));
            out.add(new Column(text(c, "name"), type, required(c, "nullable").asBoolean()));
        }
        return new TableSchema(out);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("an entry lacks \"" + field + "\"");
        }
        return v;
    }

    private static String text(JsonNode node, String field) {
        return required(node, field).asText();
    }
}
