"""A store as tables: counts from its palettes, Parquet on demand, SQL through DuckDB.

Nothing here is written while a store is solved: :func:`export_parquet` writes one Parquet
file a tier when asked (``perfectplay export STORE --parquet``), and :func:`sql` runs a query
over an Arrow view of the store (streamed a tier at a time, nothing copied to disk) or over
the export when there is one. (The module is ``tabular``, not ``sql``: the store's face
exports the function :func:`sql`, which would hide a module of the same name.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.protocol import Value
from .layout import StoreError, margin_text, need
from .reader import Store

#: Positions a record batch of the Arrow view holds.
BATCH = 1 << 20


def analyze(store: str | Path | Store) -> dict[str, Any]:
    """Counts by value, by remoteness and by tier, from the palette ids (no SQL needed)."""
    s = store if isinstance(store, Store) else Store(store)
    counts = s.counts()
    by_tier = {t: s.tables[t].size for t in s.tiers}
    return {"total": counts.total,
            "by_value": {(k.value if isinstance(k, Value) else margin_text(k)): n
                         for k, n in counts.by_value.items()},
            "by_remoteness": {("draw" if r is None else r): n
                              for r, n in counts.by_remoteness.items()},
            "by_tier": by_tier}


def _schema() -> Any:
    pa = need("pyarrow")
    return pa.schema([("position", pa.int64()), ("tier", pa.int32()), ("value", pa.string()),
                      ("remoteness", pa.int32())])


def _batches(s: Store) -> Iterator[Any]:
    """The store as record batches: position (the code), tier, value (a value name or the
    exact margin), remoteness (null for a draw)."""
    pa = need("pyarrow")
    for t in s.tiers:
        table = s.tables[t]
        names = pa.array([v.value if isinstance(v, Value) else margin_text(v)
                          for v in table.values.tolist()], pa.string())
        codes = s.codes(t)
        for k in range(0, table.size, BATCH):
            pid = np.asarray(table.cells[k:k + BATCH]).astype(np.int32)
            rem = table.rems[pid]
            yield pa.record_batch([pa.array(codes[k:k + BATCH]),
                                   pa.array(np.full(pid.size, t, np.int32)),
                                   pa.DictionaryArray.from_arrays(pa.array(pid), names)
                                   .cast(pa.string()),
                                   pa.array(rem.astype(np.int32), mask=rem < 0)],
                                  schema=_schema())


def export_parquet(store: str | Path, out: str | Path | None = None) -> Path:
    """Write the store as Parquet, one file a tier, into ``out`` (default STORE/parquet/);
    returns the folder. Columns: position, tier, value, remoteness."""
    pq = need("pyarrow.parquet")
    s = Store(store)
    folder = Path(out) if out is not None else s.path / "parquet"
    folder.mkdir(parents=True, exist_ok=True)
    writer: Any = None
    current = None
    try:
        for batch in _batches(s):
            t = int(batch.column(1)[0].as_py()) if batch.num_rows else None
            if t != current:
                if writer is not None:
                    writer.close()
                current = t
                writer = pq.ParquetWriter(folder / f"tier={t}.parquet", _schema())
            writer.write_batch(batch)
    finally:
        if writer is not None:
            writer.close()
    return folder


def sql(store: str | Path, query: str) -> list[tuple[Any, ...]]:
    """Rows of a DuckDB query over the table ``solved`` (position, tier, value,
    remoteness): the store's Parquet export when there is one, else an Arrow view."""
    return sql_table(store, query)[1]


def sql_table(store: str | Path, query: str) -> tuple[list[str], list[tuple[object, ...]]]:
    """The column names and the rows of a DuckDB query over the table ``solved`` (see
    :func:`sql`)."""
    duckdb = need("duckdb")
    pa = need("pyarrow")
    s = Store(store)
    con = duckdb.connect()
    export = s.path / "parquet"
    if export.is_dir() and any(export.glob("*.parquet")):
        pattern = str(export.resolve() / "*.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW solved AS SELECT * FROM read_parquet('{pattern}')")
    else:
        con.register("solved", pa.RecordBatchReader.from_batches(_schema(), _batches(s)))
    try:
        cursor = con.execute(query)
        rows = list(cursor.fetchall())
    except duckdb.Error as exc:
        raise StoreError(f"the query failed: {str(exc).splitlines()[0][:300]}") from None
    return [d[0] for d in cursor.description or ()], rows
