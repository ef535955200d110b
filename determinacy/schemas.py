"""JSON Schema of every stored record, generated from the msgspec structs."""

from __future__ import annotations

import json

import msgspec

from determinacy.records import STORED_RECORDS
from determinacy.reports.summary import Report
from determinacy.reports.tables import ErrorRow, TaskRow


def schema_files() -> dict[str, str]:
    out = {}
    # Report: runs/<benchmark>/report.json, the one output with a shape of its own.
    for struct in (*STORED_RECORDS, TaskRow, ErrorRow, Report):
        schema = msgspec.json.schema(struct)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                  "$id": f"determinacy/{struct.__name__}.json", **schema}
        out[f"{struct.__name__}.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out
