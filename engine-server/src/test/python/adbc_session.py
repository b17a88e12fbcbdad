"""What a Python user does with ADBC's Flight SQL driver (and pyarrow.flight) against Ferry's Flight SQL endpoint;
prints one JSON object per step for AdbcClientTest.

Usage: adbc_session.py URI USER PASSWORD
"""
import json
import sys

import adbc_driver_flightsql.dbapi as flightsql
import pyarrow.flight as flight

uri, user, password = sys.argv[1], sys.argv[2], sys.argv[3]


def out(step, **values):
    print(json.dumps({"step": step, **values}, default=str), flush=True)


def error(e):
    return {"type": type(e).__name__, "message": str(e)}


try:
    with flightsql.connect(uri, db_kwargs={"username": user, "password": "not " + password},
                           autocommit=True) as bad:
        with bad.cursor() as cur:
            cur.execute("SELECT 1")
            cur.fetchall()
    out("wrong password", error=None)
except Exception as e:
    out("wrong password", error=error(e))

conn = flightsql.connect(uri, db_kwargs={"username": user, "password": password}, autocommit=True)
cur = conn.cursor()

cur.execute("SELECT COUNT(*) AS n, SUM(k) AS total FROM t")
out("count", rows=cur.fetchall())

# a whole table as Arrow, then the same cursor again
cur.execute("SELECT * FROM t")
table = cur.fetch_arrow_table()
out("arrow table", rows=table.num_rows, types=[str(t) for t in table.schema.types],
    names=table.schema.names, nulls=table.column("s").null_count, first=table.slice(0, 1).to_pylist())
cur.execute("SELECT g, COUNT(*) FROM t GROUP BY g ORDER BY g LIMIT 3")
out("second query", rows=cur.fetchall())

# parameters, twice with the same SQL, then a plain statement
cur.execute("SELECT k FROM t WHERE k < ? ORDER BY k", parameters=(3,))
out("parameters", rows=cur.fetchall())
cur.execute("SELECT k FROM t WHERE k < ? ORDER BY k", parameters=(2,))
out("parameters again", rows=cur.fetchall())
cur.execute("SELECT 1 + 1")
out("plain after prepared", rows=cur.fetchall())

# intervals: the difference of two timestamps (Arrow duration) and months (Arrow interval)
cur.execute("SELECT k, TIMESTAMP '2024-01-02 03:00:00' - CAST(dt AS TIMESTAMP), g * INTERVAL '1' MONTH "
            "FROM t WHERE k < 2 ORDER BY k")
table = cur.fetch_arrow_table()
out("intervals", types=[str(t) for t in table.schema.types],
    seconds=[d.total_seconds() for d in table.column(1).to_pylist()])

# DDL and DML, executemany, then reading back
cur.execute("CREATE TABLE py_items (id INTEGER, name VARCHAR)")
cur.executemany("INSERT INTO py_items VALUES (?, ?)", [(1, "a"), (2, "ü"), (3, None)])
cur.execute("SELECT * FROM py_items ORDER BY id")
out("executemany", rows=cur.fetchall())

try:
    cur.execute("SELECT * FROM no_such_table")
    cur.fetchall()
    out("unknown table", error=None)
except Exception as e:
    out("unknown table", error=error(e))
cur.execute("SELECT 2")
out("after an error", rows=cur.fetchall())

objects = conn.adbc_get_objects(depth="tables", db_schema_filter="ferry").read_all().to_pylist()
tables = sorted(t["table_name"] for c in objects for s in c["catalog_db_schemas"] or []
                for t in s["db_schema_tables"] or [])
out("get_objects", tables=tables)
out("table schema", schema=[str(f.type) for f in conn.adbc_get_table_schema("t", db_schema_filter="ferry")])
out("info", info={k: str(v) for k, v in conn.adbc_get_info().items() if k in ("vendor_name", "driver_name")})

# a large result read batch by batch, the reader dropped half way (a client that walks away)
cur.execute("SELECT a.k, b.k FROM t a CROSS JOIN t b")
reader = cur.fetch_record_batch()
first = reader.read_next_batch()
out("walk away", batch_rows=first.num_rows)
cur.close()
conn.close()

# pyarrow.flight itself: the Flight SQL command is a protobuf; the handshake alone shows the endpoint speaks Flight
client = flight.FlightClient(uri)
token = client.authenticate_basic_token(user, password)
out("pyarrow.flight", authenticated=bool(token[1]))
client.close()
out("closed")
