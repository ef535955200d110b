"""Per-instance results of models, in the formats people have, read into ResultFile records.

Five formats, told apart by their content (never by the file name):

- ``swebench-report``: the SWE-bench harness's run report, a JSON object with
  ``resolved_ids`` (pass), ``unresolved_ids`` and ``empty_patch_ids`` (fail: the model's patch,
  or its empty patch, was evaluated and did not resolve the task) and ``error_ids`` (error:
  the harness could not evaluate it). An instance in none of them is missing.
- ``swebench-experiments``: the ``results.json`` of a submission of SWE-bench's experiments
  repository (``evaluation/<split>/<submission>/results/results.json``), a JSON object of
  lists: ``resolved`` (pass), ``no_logs``, ``install_fail``, ``reset_failed`` (error: the
  evaluation did not run), ``no_generation`` (fail: the model produced no patch). The format
  names only these, so every other instance of the benchmark was evaluated and not resolved:
  it is a fail, and SCORES.md says so.
- ``instance-reports``: a folder holding one ``<instance>/report.json`` per instance (the
  harness's ``logs/run_evaluation/<run>/<model>/``), one such report.json, or a JSON object of
  them, ``{instance_id: {resolved, ...}}`` (the ``per_instance_details.json`` of an experiments
  ``bash-only`` submission): ``resolved`` true is a pass, false a fail; an instance folder with
  a ``run_instance.log`` but no ``report.json`` is an error (the evaluation did not finish).
  ``tests_status`` gives the per-test counts.
- ``swebench-pro-eval``: SWE-bench Pro's ``eval_results.json``, a JSON object
  ``{instance_id: true | false}``: true is a pass, false a fail, an instance it does not name
  missing.
- ``jsonl``: one JSON object a line, ``{instance_id, model, result[, f2p_passed, f2p_total,
  p2p_failed]}``, result ``pass`` / ``fail`` / ``error`` / ``missing`` (``resolved`` and
  ``unresolved``, true and false are read as pass and fail).

The model of a file's rows, first that applies: ``--model NAME`` (it names every row of the
file, so a file holding several models cannot take one); the jsonl ``model`` field; the file's
name without its extension when it is not generic (``gamma.json``, the harness's
``<model>.<run_id>.json``); for the layouts that name a folder after the model, that folder
(the nearest whose name is not generic): an experiments submission
(``<submission>/results/results.json``, ``<submission>/per_instance_details.json``) and the
harness's logs (``<model>/<instance>/report.json``: the folder that holds the instance
folders). A file none of these names (SWE-bench Pro's ``eval_results.json``, a harness report
saved as ``report.json``) is an error naming it and asking for ``--model``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import msgspec

from determinacy import __version__
from determinacy.errors import DeterminacyError
from determinacy.records import Outcome, ResultFile, ResultRow
from determinacy.store import digest

FORMATS = {
    "swebench-report": "SWE-bench harness report: resolved_ids → pass; unresolved_ids and "
                       "empty_patch_ids → fail; error_ids → error; an instance in none → missing",
    "swebench-experiments": "SWE-bench experiments results.json: resolved → pass; no_logs, "
                            "install_fail, reset_failed → error; no_generation → fail; every "
                            "other instance of the benchmark → fail (the format lists only "
                            "these)",
    "instance-reports": "per-instance report.json (a folder of them, or a map {instance_id: "
                        "{resolved, ...}} such as per_instance_details.json): resolved → pass, "
                        "else fail; an instance folder with no report.json → error; an "
                        "instance it does not name → missing; per-test counts from "
                        "tests_status",
    "swebench-pro-eval": "SWE-bench Pro eval_results.json, {instance_id: true | false}: true → "
                         "pass, false → fail; an instance it does not name → missing",
    "jsonl": "one JSON object a line, {instance_id, model, result[, f2p_passed, f2p_total, "
             "p2p_failed]}: result pass / fail / error / missing",
}

GENERIC_NAMES = {"results", "result", "report", "reports", "eval", "evaluation", "eval_results",
                 "logs", "output", "outputs", "run_evaluation", "predictions",
                 "per_instance_details"}

_RESULT_WORDS: dict[str, Outcome] = {"pass": "pass", "passed": "pass", "resolved": "pass",
                                     "fail": "fail", "failed": "fail", "unresolved": "fail",
                                     "error": "error", "missing": "missing"}


def file_model(path: Path) -> str | None:
    """The file's name without its extension, when it is not a generic name."""
    name = path.name.removesuffix(".jsonl").removesuffix(".json")
    return name if name and name.lower() not in GENERIC_NAMES else None


def folder_model(path: Path) -> str | None:
    """`path` itself (a folder) or the nearest folder above it whose name is not generic."""
    path = path.resolve()  # `.` and `..` have names too
    for folder in (path, *path.parents):
        if folder.name and folder.name.lower() not in GENERIC_NAMES:
            return folder.name
    return None


def _named(path: str, fmt: str, *names: str | None) -> str:
    """The first of `names` that is one, else the error that asks for --model."""
    for name in names:
        if name:
            return name
    raise DeterminacyError(
        f"{path}: this {fmt} file names no model (its content has none and "
        f"`{Path(path).name}` is a generic name): give --model NAME")


def _check_model(model: str | None) -> str | None:
    if model is not None and (not model.strip() or model != model.strip()):
        raise DeterminacyError(f"--model {model!r}: a model name is text with no blank at "
                               "either end")
    return model


def read(path: str | Path, model: str | None = None) -> ResultFile:
    """Read one results file or folder, detecting its format from its content. `model`
    (`--model`) names the model of every row, in place of what the file says."""
    p = Path(path)
    model = _check_model(model)
    if p.is_dir():
        return _renamed(_instance_folder(p, str(path), model), model)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise DeterminacyError(f"cannot read results {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeterminacyError(f"{path}: not UTF-8 text, so not a results file") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    head = _loads(first, str(path))
    if isinstance(head, dict) and "instance_id" in head:
        return _renamed(_jsonl(text, str(path), p, digest(data), model), model)
    whole = _loads(text, str(path))
    if isinstance(whole, dict):
        if "resolved_ids" in whole:
            return _report(whole, str(path), p, digest(data), model)
        if isinstance(whole.get("resolved"), list):
            return _experiments(whole, str(path), p, digest(data), model)
        if whole and all(isinstance(v, dict) and "resolved" in v for v in whole.values()):
            # The harness's <model>/<instance>/report.json, or a map of many instances.
            own = (folder_model(p.parent.parent) if p.parent.name in whole
                   else file_model(p) or folder_model(p.parent))
            rows = _instance_rows(whole, _named(str(path), "instance-reports", model, own),
                                  str(path))
            return _file(str(path), "instance-reports", digest(data),
                         sorted(rows, key=_row_key))
        if whole and all(isinstance(v, bool) for v in whole.values()):
            return _pro_eval(whole, str(path), p, digest(data), model)
    raise DeterminacyError(
        f"{path}: not a results format determinacy reads (a SWE-bench harness report with "
        "resolved_ids, an experiments results.json with resolved, per-instance report.json, "
        "SWE-bench Pro's eval_results.json {instance_id: true | false}, or a jsonl of "
        "{instance_id, model, result})")


def _renamed(f: ResultFile, model: str | None) -> ResultFile:
    """`f` with every row's model `model`: refused when `f` holds several models (one name
    would merge them)."""
    if model is None:
        return f
    held = sorted({r.model for r in f.rows})
    if len(held) > 1:
        raise DeterminacyError(
            f"{f.path}: holds the results of {len(held)} models ({', '.join(held)}), so "
            f"--model {model!r} cannot name them all: give - for this file (its own models)")
    rows = [msgspec.structs.replace(r, model=model) for r in f.rows]
    return msgspec.structs.replace(f, rows=rows)


def _loads(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
    except RecursionError:  # `[[[[...]]]]` thousands deep: no results file is
        raise DeterminacyError(f"{path}: JSON nested too deeply to be a results file") \
            from None


def _row_key(r: ResultRow) -> tuple[str, str]:
    return r.model, r.instance_id


def _file(path: str, fmt: str, source_digest: str, rows: list[ResultRow],
          unnamed: Literal["missing", "fail"] = "missing") -> ResultFile:
    seen: dict[tuple[str, str], str] = {}
    for r in rows:
        key = _row_key(r)
        if key in seen:
            raise DeterminacyError(f"{path}: model {r.model!r} has two results for "
                                   f"{r.instance_id!r} ({seen[key]} and {r.where})")
        seen[key] = r.where
    return ResultFile(path=path, format=fmt, source_digest=source_digest,
                      tool_version=__version__, rows=rows, unnamed=unnamed)


def _ids(data: dict[str, Any], key: str, path: str) -> list[str]:
    got = data.get(key) or []
    if not isinstance(got, list) or not all(isinstance(i, str) for i in got):
        raise DeterminacyError(f"{path}: `{key}` is not a list of instance ids")
    return got


def _by_lists(data: dict[str, Any], path: str, model: str,
              lists: tuple[tuple[str, Outcome], ...]) -> list[ResultRow]:
    """Rows from lists of ids; an id in several lists takes the first list's outcome, but an
    id both passed and not (resolved and unresolved) is a contradiction: an error."""
    rows: dict[str, ResultRow] = {}
    for key, outcome in lists:
        for iid in _ids(data, key, path):
            had = rows.setdefault(iid, ResultRow(instance_id=iid, model=model,
                                                 outcome=outcome, where=key))
            if (had.outcome == "pass") != (outcome == "pass"):
                raise DeterminacyError(f"{path}: {iid!r} is in both `{had.where}` and "
                                       f"`{key}`: the report contradicts itself")
    return sorted(rows.values(), key=_row_key)


def _report(data: dict[str, Any], path: str, p: Path, source_digest: str,
            model: str | None) -> ResultFile:
    # The harness writes <model>.<run_id>.json in the folder it runs in: no folder names it.
    rows = _by_lists(data, path, _named(path, "swebench-report", model, file_model(p)), (
        ("resolved_ids", "pass"), ("error_ids", "error"), ("unresolved_ids", "fail"),
        ("empty_patch_ids", "fail")))
    return _file(path, "swebench-report", source_digest, rows)


def _experiments(data: dict[str, Any], path: str, p: Path, source_digest: str,
                 model: str | None) -> ResultFile:
    named = _named(path, "swebench-experiments", model, file_model(p), folder_model(p.parent))
    rows = _by_lists(data, path, named, (
        ("resolved", "pass"), ("no_logs", "error"), ("install_fail", "error"),
        ("reset_failed", "error"), ("no_generation", "fail")))
    return _file(path, "swebench-experiments", source_digest, rows, unnamed="fail")


def _pro_eval(data: dict[str, bool], path: str, p: Path, source_digest: str,
              model: str | None) -> ResultFile:
    named = _named(path, "swebench-pro-eval", model, file_model(p))
    if any(not iid for iid in data):
        raise DeterminacyError(f"{path}: an empty instance id")
    rows = [ResultRow(instance_id=iid, model=named, outcome="pass" if ok else "fail",
                      where=f"entry {'true' if ok else 'false'}") for iid, ok in data.items()]
    return _file(path, "swebench-pro-eval", source_digest, sorted(rows, key=_row_key))


def _count(value: Any, where: str, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DeterminacyError(f"{where}: `{field}` must be a count (an integer >= 0)")
    return value


def _jsonl(text: str, path: str, p: Path, source_digest: str,
           model: str | None) -> ResultFile:
    default_model = model or file_model(p)
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        obj = _loads(line, where)
        if not isinstance(obj, dict):
            raise DeterminacyError(f"{where}: not a JSON object")
        iid, result = obj.get("instance_id"), obj.get("result")
        if not isinstance(iid, str) or not iid:
            raise DeterminacyError(f"{where}: no `instance_id`")
        if isinstance(result, bool):
            result = "pass" if result else "fail"
        outcome = _RESULT_WORDS.get(str(result).lower()) if isinstance(result, str) else None
        if outcome is None:
            raise DeterminacyError(f"{where}: `result` is {result!r}; expected pass, fail, "
                                   "error or missing")
        named = obj.get("model") or default_model
        if not named:
            raise DeterminacyError(f"{where}: no `model`, and `{p.name}` is a generic name: "
                                   "give --model NAME")
        if not isinstance(named, str):
            raise DeterminacyError(f"{where}: `model` is not text")
        rows.append(ResultRow(
            instance_id=iid, model=named, outcome=outcome, where=f"line {n}",
            f2p_passed=_count(obj.get("f2p_passed"), where, "f2p_passed"),
            f2p_total=_count(obj.get("f2p_total"), where, "f2p_total"),
            p2p_failed=_count(obj.get("p2p_failed"), where, "p2p_failed")))
    return _file(path, "jsonl", source_digest, sorted(rows, key=_row_key))


def _tests(status: Any, group: str, outcome: str) -> int | None:
    if not isinstance(status, dict) or not isinstance(status.get(group), dict):
        return None
    got = status[group].get(outcome)
    return len(got) if isinstance(got, list) else None


def _instance_rows(data: dict[str, Any], model: str, where: str) -> Iterator[ResultRow]:
    for iid, report in data.items():
        if not isinstance(report, dict) or "resolved" not in report:
            raise DeterminacyError(f"{where}: the entry of {iid!r} has no `resolved`")
        status = report.get("tests_status")
        passed, failed = _tests(status, "FAIL_TO_PASS", "success"), _tests(
            status, "FAIL_TO_PASS", "failure")
        yield ResultRow(
            instance_id=iid, model=model, outcome="pass" if report["resolved"] is True else "fail",
            where=where, f2p_passed=passed,
            f2p_total=None if passed is None or failed is None else passed + failed,
            p2p_failed=_tests(status, "PASS_TO_PASS", "failure"))


def _instance_folder(folder: Path, path: str, model: str | None) -> ResultFile:
    """Every <instance>/report.json below `folder`; an instance folder that has the harness's
    log but no report is an error. The digest covers each report's path and bytes and the
    names of the folders without one. The folder that holds the instance folders names the
    model (the caller renames them all when --model is given)."""
    listing: list[str] = []
    rows: list[ResultRow] = []
    reports = sorted(folder.rglob("report.json"))
    for report in reports:
        rel = report.relative_to(folder).as_posix()
        data = report.read_bytes()
        listing.append(f"{rel}\0{digest(data)}\n")
        obj = _loads(data.decode("utf-8", errors="replace"), str(report))
        if not isinstance(obj, dict):
            raise DeterminacyError(f"{report}: not a JSON object")
        rows.extend(_instance_rows(obj, _named(str(report), "instance-reports",
                                               folder_model(report.parent.parent), model), rel))
    for log in sorted(folder.rglob("run_instance.log")):
        if not (log.parent / "report.json").is_file():
            rel = log.parent.relative_to(folder).as_posix()
            listing.append(f"{rel}/\n")
            rows.append(ResultRow(
                instance_id=log.parent.name,
                model=_named(str(log.parent), "instance-reports",
                             folder_model(log.parent.parent), model),
                outcome="error", where=f"{rel}/ (no report.json)"))
    if not rows:
        raise DeterminacyError(f"{path}: a folder with no <instance>/report.json, so not a "
                               "folder of per-instance reports")
    return _file(path, "instance-reports", digest("".join(listing).encode("utf-8")),
                 sorted(rows, key=_row_key))
