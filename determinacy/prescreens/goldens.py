"""Self-capturing goldens: a test that writes its expected output when it is missing grades
nothing it can fail on its first run (SELF-CAPTURING, disputed). Read from the lines the test
patch adds:

- a check that a golden, expected, snapshot or baseline file does not exist, followed within a
  few lines by a write (`if not p.exists(): p.write_text(got)`, Go's `os.IsNotExist` then
  `os.WriteFile`, Node's `!fs.existsSync` then `writeFileSync`);
- a Jest or Vitest snapshot the test patch does not ship: `toMatchSnapshot(` with no `.snap`
  file in the test patch, `toMatchInlineSnapshot()` with nothing inline. Jest writes a new
  snapshot and passes, unless the runner passes `--ci` (or sets CI): the evidence says so.

Snapshot tools that fail on a missing snapshot by default (syrupy, pytest-snapshot, insta,
goldie) are not self-capturing and are not flagged.
"""

from __future__ import annotations

import re

from determinacy.prescreens._patch import files
from determinacy.records import Task, ValidityCheck

WINDOW = 6  # lines after the existence check in which the write must come
_ABSENT = re.compile(
    r"\bnot\s+(?:os\.path\.(?:exists|isfile)\(|[\w.\[\]'\"()]+\.(?:exists|is_file)\(\))"
    r"|os\.IsNotExist\(|errors\.Is\([^)]*ErrNotExist\)|!\s*(?:fs\.)?existsSync\("
    r"|!\s*(?:Files\.exists\(|file_exists\(|[\w.]+\.exists\(\))|unless\s+File\.exists?\?")
_WRITE = re.compile(
    r"\.write_(?:text|bytes)\(|\bopen\([^)]*['\"][wx]b?['\"]|\b(?:json|yaml|pickle)\.dump\("
    r"|\b(?:os|ioutil)\.WriteFile\(|\bwriteFile(?:Sync)?\(|\bFiles\.write|file_put_contents\("
    r"|\bFile\.write\(|\bfs::write\(|\.write\(")
_GOLDEN = re.compile(r"golden|expect|snapshot|\bsnap|baseline|approved|fixture_out|\.out\b",
                     re.I)
_SNAPSHOT = re.compile(r"\.toMatchSnapshot\(|\.toMatchInlineSnapshot\(\s*\)"
                       r"|\.toMatchFileSnapshot\(")


def check(task: Task) -> list[ValidityCheck]:
    diffs = files(task.test_patch, "the test patch")
    ships_snap = any(f.path.endswith(".snap") for f in diffs)
    found: list[tuple[str, str]] = []  # (path:line, why)
    for f in diffs:
        if f.binary:
            continue
        for hunk in f.hunks:
            for i, (n, text, is_added) in enumerate(hunk):
                if not is_added:
                    continue
                if _ABSENT.search(text):
                    after = hunk[i + 1:i + 1 + WINDOW]
                    w = next(((m, t) for m, t, _ in after if _WRITE.search(t)), None)
                    if w and (_GOLDEN.search(text) or _GOLDEN.search(w[1])):
                        found.append((f"{f.path}:{n}", f"writes its expected file when it "
                                      f"is missing (`{text.strip()}`, then line {w[0]})"))
                m = _SNAPSHOT.search(text)
                if m and ("Inline" in m.group(0) or not ships_snap):
                    found.append((f"{f.path}:{n}", f"`{m.group(0)}` with no snapshot shipped: "
                                  "Jest writes it and passes (unless run with --ci)"))
    return [ValidityCheck(
        case_id=task.case_id, instance_id=task.instance_id, prescreen="self-capturing",
        verdict="SELF-CAPTURING", literal=at, pointers=[at], proposed="disputed",
        evidence=f"a test the test patch adds {why}: on a first run it grades nothing it "
                 "can fail") for at, why in found]
