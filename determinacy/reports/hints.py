"""Declaration hints (method §7): what a benchmark could tell the solver so that a hidden
naming contract stops being hidden, and nothing else.

Pure: rows of `queries/hints.sql` in, one JSON and one Markdown file per case out. A hint
gives each name's kind, declaring path, whether that file is new, and a callable's
signature; members sit under their class. It never describes behavior, which would hand the
solver part of the solution.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any


def _entry(r: dict[str, Any]) -> dict[str, Any]:
    e: dict[str, Any] = {"name": r["name"], "kind": r["decl"] or "name",
                         "path": (r["defined_at"] or "").rpartition(":")[0],
                         "new_file": bool(r["new_file"])}
    if r["signature"]:
        e["signature"] = r["signature"]
    return e


def declarations(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One case's hinted names, members grouped under their class or type (the class is
    listed for its members even when it needs no hint of its own: it may exist at base)."""
    top: dict[tuple[str, str], dict[str, Any]] = {}
    members: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        e = _entry(r)
        if r["owner"]:
            members[(e["path"], r["owner"])].append(e)
        else:
            top[(e["path"], e["name"])] = e
    for (path, owner), ms in members.items():
        holder = top.setdefault((path, owner), {"name": owner, "kind": "class", "path": path,
                                                "container": True})
        holder["members"] = sorted(ms, key=lambda m: m["name"])
    return [top[k] for k in sorted(top)]


def render(case_id: str, decls: list[dict[str, Any]]) -> tuple[str, str]:
    """(hints/<id>.json, hints/<id>.md)."""
    as_json = json.dumps({"case_id": case_id, "declarations": decls}, indent=2,
                         sort_keys=True, ensure_ascii=False) + "\n"
    md = [f"# Declaration hint: {case_id}", "",
          "The tests of this task use these names, which the task text may not give. A "
          "faithful fix declares them as follows.", ""]
    for d in decls:
        md.append(_line(d, ""))
        for m in d.get("members", []):
            md.append(_line(m, "  "))
    return as_json, "\n".join(md) + "\n"


def _line(d: dict[str, Any], indent: str) -> str:
    where = "" if indent else (f" in `{d['path']}`" + (" (a new file)" if d.get("new_file")
                                                      else ""))
    what = f"`{d['signature']}`" if d.get("signature") else f"`{d['name']}`"
    members = ", with the members:" if d.get("container") else ""
    return f"{indent}- {d['kind']} {what}{where}{members}"


def files(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Every hints/ file, by path relative to runs/<benchmark>/."""
    by_case: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_case[r["case_id"]].append(r)
    out: dict[str, str] = {}
    for case_id in sorted(by_case):
        as_json, md = render(case_id, declarations(by_case[case_id]))
        out[f"hints/{case_id}.json"] = as_json
        out[f"hints/{case_id}.md"] = md
    return out
