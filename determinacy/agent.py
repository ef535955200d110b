"""Calling an agent: any CLI that reads a prompt on stdin and prints an answer on stdout.

Argument lists only, never a shell. A call that times out, exits non-zero or prints no JSON
object raises a transient CaseError: it is recorded, never cached, and tried again next run.
The prompt and the transcript are stored as objects either way.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
from pathlib import Path
from string import Template
from typing import Any

import msgspec

from determinacy.errors import CaseError
from determinacy.records import AgentCall
from determinacy.store import Store

PROMPTS = Path(__file__).resolve().parent / "prompts"


def prompt_template(phase: str) -> str:
    return (PROMPTS / f"{phase}.md").read_text(encoding="utf-8")


def render(phase: str, case_id: str, pass_no: int, fields: dict[str, str]) -> str:
    """The prompt: three header lines any agent (or recorded answer script) can dispatch on,
    then the phase's template with the materials substituted ($name placeholders)."""
    head = (f"DETERMINACY-PHASE: {phase}\nDETERMINACY-CASE: {case_id}\n"
            f"DETERMINACY-PASS: {pass_no}\n\n")
    return head + Template(prompt_template(phase)).substitute(fields)


def shorten(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[:limit] + f"\n[... shortened by determinacy: {len(text) - limit} more "\
        "characters not shown ...]\n", True


_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.S)


def parse_answer(stdout: str) -> dict[str, Any]:
    """The JSON object an agent printed: the whole output, a fenced block, or the outermost
    {...}. Raises ValueError when there is none."""
    candidates = [stdout.strip()]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(stdout)]
    first, last = stdout.find("{"), stdout.rfind("}")
    if first != -1 and last > first:
        candidates.append(stdout[first : last + 1])
    for text in candidates:
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(obj, dict):
            return obj
    raise ValueError("no JSON object in the agent's output")


def call(store: Store, argv: list[str], prompt: str, timeout: float, *, phase: str,
         case_id: str, pass_no: int, truncated: list[str]) -> tuple[AgentCall, dict[str, Any]]:
    prompt_hash = store.put(prompt.encode())
    env = {**os.environ, "DETERMINACY_PHASE": phase}
    try:
        # Own process group: on a timeout the agent and anything it started are killed.
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, start_new_session=True)
    except OSError as e:
        raise CaseError(f"{phase}: cannot start the agent {argv[:1]}: {e}",
                        transient=True) from None
    try:
        out, err = proc.communicate(prompt.encode(), timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    transcript = store.put(msgspec.json.encode(
        {"stdout": out.decode(errors="replace"), "stderr": err.decode(errors="replace"),
         "exit": code}, order="sorted"))
    where = f"(prompt {prompt_hash[:12]}, transcript {transcript[:12]})"
    if code is None:
        raise CaseError(f"{phase}: the agent timed out after {timeout:g} s {where}",
                        transient=True)
    if code != 0:
        raise CaseError(f"{phase}: the agent exited with status {code} {where}", transient=True)
    try:
        answer = parse_answer(out.decode(errors="replace"))
    except ValueError as e:
        raise CaseError(f"{phase}: {e} {where}", transient=True) from None
    record = AgentCall(phase=phase, case_id=case_id, pass_no=pass_no, argv=argv,
                       prompt=prompt_hash, transcript=transcript, truncated=truncated)
    return record, answer


def text_field(obj: Any, key: str) -> str:
    """A string field of an agent's JSON object; anything else counts as empty."""
    v = obj.get(key, "") if isinstance(obj, dict) else ""
    return v if isinstance(v, str) else ""


def list_field(obj: Any, key: str) -> list[Any]:
    v = obj.get(key, []) if isinstance(obj, dict) else []
    return v if isinstance(v, list) else []
