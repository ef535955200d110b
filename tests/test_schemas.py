"""schemas/ documents the stored records; it must say what the structs say."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from determinacy.records import STORED_RECORDS
from determinacy.schemas import schema_files

ROOT = Path(__file__).resolve().parent.parent


def test_schemas_folder_matches_the_structs() -> None:
    files = schema_files()
    stale = [n for n, text in files.items()
             if not (ROOT / "schemas" / n).is_file()
             or (ROOT / "schemas" / n).read_text() != text]
    assert not stale, f"run `determinacy schemas`: {stale} out of date"
    extra = {p.name for p in (ROOT / "schemas").glob("*.json")} - set(files)
    assert not extra, f"schemas/ has files for no struct: {extra}"


def test_every_stored_record_has_a_schema_that_rejects_unknown_fields() -> None:
    files = schema_files()
    for struct in STORED_RECORDS:
        schema = json.loads(files[f"{struct.__name__}.json"])
        body = schema["$defs"][struct.__name__]
        assert body["additionalProperties"] is False
        assert set(body["properties"]) == set(struct.__struct_fields__)
        try:
            msgspec.json.decode(b'{"not_a_field": 1}', type=struct)
        except msgspec.ValidationError as e:
            assert "not_a_field" in str(e) or "missing required field" in str(e)
