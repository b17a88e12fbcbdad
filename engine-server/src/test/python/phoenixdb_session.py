"""What a Python user does with phoenixdb against Ferry; prints one JSON object per step for PythonClientTest.

Usage: phoenixdb_session.py URL
"""
import datetime
import decimal
import json
import sys

import phoenixdb


def out(step, **values):
    print(json.dumps({"step": step, **values}, default=str), flush=True)


def error(e):
    return {"type": type(e).__name__, "sqlstate": getattr(e, "sqlstate", None), "message": str(e)}


conn = phoenixdb.connect(sys.argv[1], autocommit=True)
cur = conn.cursor()

cur.execute("SELECT COUNT(*) FROM r")
out("count", rows=cur.fetchall())

# the same cursor again, and for every row of a larger result
cur.execute("SELECT b, COUNT(*) FROM r GROUP BY b ORDER BY b LIMIT 3")
out("second query", rows=cur.fetchall())
cur.execute("SELECT a FROM r")
out("iterate", count=sum(1 for _ in cur))

# parameters, then a plain statement on the same cursor
cur.execute("SELECT a FROM r WHERE a < ? ORDER BY a", [3])
out("parameters", rows=cur.fetchall())
cur.execute("SELECT 1 + 1")
out("plain after prepared", rows=cur.fetchall())

cur.execute("SELECT DATE '1500-03-01', TIMESTAMP '2020-01-02 03:04:05', CAST(12.25 AS DECIMAL(10, 2)), "
            "'Zürich ✓ 東京', CAST(NULL AS INTEGER), TRUE, 1.5e0, CAST(9223372036854775807 AS BIGINT)")
row = cur.fetchone()
out("types", values=[v.isoformat() if isinstance(v, (datetime.date, datetime.datetime)) else
                     str(v) if isinstance(v, decimal.Decimal) else v for v in row],
    columns=[d.type_code for d in cur.description])

try:
    cur.execute("SELECT * FROM no_such_table")
except phoenixdb.Error as e:
    out("unknown table", error=error(e))
cur.execute("SELECT 2")
out("after an error", rows=cur.fetchall())

cur.execute("DROP TABLE IF EXISTS py_t")
cur.execute("CREATE TABLE py_t (a INTEGER PRIMARY KEY, s VARCHAR)")
cur.executemany("INSERT INTO py_t VALUES (?, ?)", [[1, "a"], [2, "ü"], [3, None]])
conn.commit()
cur.execute("SELECT a, s FROM py_t ORDER BY a")
out("executemany", rows=cur.fetchall())
try:
    cur.executemany("INSERT INTO py_t VALUES (?, ?)", [[4, "d"], [1, "again"], [5, "e"]])
except phoenixdb.Error as e:
    out("failing batch", error=error(e))
cur.execute("SELECT COUNT(*) FROM py_t")
out("after the failing batch", rows=cur.fetchall())
try:
    conn.rollback()
    out("rollback", error=None)
except phoenixdb.Error as e:
    out("rollback", error=error(e))
cur.close()
conn.close()
out("closed")
