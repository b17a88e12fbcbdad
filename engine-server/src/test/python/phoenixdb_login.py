"""A Python user logging in to a Ferry server with users, through phoenixdb; prints one JSON object per step for
AccessControlOverJdbcTest.

Usage: phoenixdb_login.py URL USER PASSWORD
"""
import json
import sys

import phoenixdb


def out(step, **values):
    print(json.dumps({"step": step, **values}, default=str), flush=True)


def error(e):
    return {"type": type(e).__name__, "sqlstate": getattr(e, "sqlstate", None), "message": str(e)}


url, user, password = sys.argv[1:4]

try:
    phoenixdb.connect(url, autocommit=True, authentication="BASIC", avatica_user=user,
                      avatica_password=password + "-wrong").cursor().execute("SELECT 1")
    out("wrong password", error=None)
except Exception as e:  # noqa: BLE001 - the test reads whatever phoenixdb raised
    out("wrong password", error=error(e))

conn = phoenixdb.connect(url, autocommit=True, authentication="BASIC", avatica_user=user, avatica_password=password)
cur = conn.cursor()
cur.execute("SELECT k FROM t ORDER BY k")
out("granted", rows=cur.fetchall())
try:
    cur.execute("SELECT k FROM secret")
    out("not granted", rows=cur.fetchall())
except phoenixdb.DatabaseError as e:
    out("not granted", error=error(e))
cur.execute("SELECT COUNT(*) FROM t")
out("after the refusal", rows=cur.fetchall())
conn.close()
out("closed")
