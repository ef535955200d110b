"""Positive and negative controls of the validity pre-screens on a real benchmark.

Each task of BENCH (a jsonl of SWE-bench Pro's columns) is audited as it is (the negative
control: what a check flags there is read, and counts against it unless the reading finds it
true) and as mutants that carry one known defect each (the positive control):

- `leak`: the prose gains a code block of the gold's six longest added lines -> LEAKED;
- `cut`: the first FAIL_TO_PASS id with a test name loses that name's last three characters
  (a truncated id, as exports of benchmarks make them) -> UNRUNNABLE;
- `renamed`: the same name with `Renamed` appended (a test renamed after the run) ->
  UNRUNNABLE;
- `copy`: the task again under another id, its gold patch's headers rewritten -> DUPLICATE;
- `gold-fails`: every tenth task's gold fails in an eval_results.json of the gold -> GOLD-FAILS;
- `sealed` (Python and Go tasks): the gold adds a module constant holding a sha256 digest, the
  test patch a graded test asserting it -> RECALL-ONLY;
- `capturing` (Python and Go tasks): the test patch adds a graded test that writes its golden
  file when it is missing -> SELF-CAPTURING.

    uv run python benchmarks/validity_controls.py BENCH.jsonl MIRROR_TEMPLATE [--limit N]

MIRROR_TEMPLATE is the `[codebase] mirror` setting (`/mirrors/{owner}+{name}`). Prints, per
check, the mutants flagged (recall), the originals flagged, and each original's finding, for
reading.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from determinacy.prescreens.testids import leaf  # noqa: E402

EXPECT = {"leak": "leaked", "cut": "test-ids", "renamed": "test-ids", "copy": "duplicate",
          "gold-fails": "gold-run", "sealed": "underivable", "capturing": "self-capturing"}
SEAL = "5f3c9d2b8e1a4c6f0b7d9e2a1c3f5b8d0e6a4c2f9b1d3e5a7c9f0b2d4e6a8c1f"


def _plus(patch: str, path: str, text: str) -> str:
    """`patch` and a hunk that creates `path` holding `text`."""
    return patch.rstrip("\n") + "\n" + _new_file(path, text)


def _new_file(path: str, text: str) -> str:
    lines = text.splitlines()
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n"
            + "".join(f"+{ln}\n" for ln in lines))


# Per language: (gold file, its text, test file, its text, graded id) for `sealed`, and
# (test file, its text, graded id) for `capturing`.
def _sealed(lang: str) -> tuple[str, str, str, str, str] | None:
    if lang == "python":
        return ("release_seal.py", f'SEAL = "{SEAL}"\n', "tests/test_release_seal.py",
                f'from release_seal import SEAL\n\n\ndef test_release_seal():\n'
                f'    assert SEAL == "{SEAL}"\n', "tests/test_release_seal.py::test_release_seal")
    if lang == "go":
        return ("seal/seal.go", f'package seal\n\nconst Seal = "{SEAL}"\n', "seal/seal_test.go",
                'package seal\n\nimport "testing"\n\nfunc TestReleaseSeal(t *testing.T) {\n'
                f'\tif Seal != "{SEAL}" {{\n\t\tt.Fatal(Seal)\n\t}}\n}}\n', "TestReleaseSeal")
    return None


def _capturing(lang: str) -> tuple[str, str, str] | None:
    if lang == "python":
        return ("tests/test_render_golden.py",
                "from pathlib import Path\n\n\ndef test_render_golden():\n"
                "    golden = Path(__file__).parent / 'render.golden'\n    got = repr(1)\n"
                "    if not golden.exists():\n        golden.write_text(got)\n"
                "    assert golden.read_text() == got\n",
                "tests/test_render_golden.py::test_render_golden")
    if lang == "go":
        return ("golden/render_test.go",
                'package golden\n\nimport (\n\t"os"\n\t"testing"\n)\n\n'
                "func TestRenderGolden(t *testing.T) {\n\tgot := []byte(\"x\")\n"
                '\tif _, err := os.Stat("testdata/render.golden"); os.IsNotExist(err) {\n'
                '\t\tos.WriteFile("testdata/render.golden", got, 0o644)\n\t}\n}\n',
                "TestRenderGolden")
    return None


def _lang(row: dict[str, Any]) -> str:
    files = re.findall(r"^\+\+\+ b/(\S+)", row["patch"], re.M)
    return "python" if any(f.endswith(".py") for f in files) else "go" if any(
        f.endswith(".go") for f in files) else ""


def _graded(row: dict[str, Any], test_id: str) -> str:
    return json.dumps([*_ids(row), test_id])


def _ids(row: dict[str, Any]) -> list[str]:
    f2p = row["fail_to_pass"]
    return list(ast.literal_eval(f2p) if isinstance(f2p, str) else f2p)


def _renamed(row: dict[str, Any], how: str) -> dict[str, Any] | None:
    ids = _ids(row)
    for k, i in enumerate(ids):
        name = leaf(i)
        if len(name) > 8:
            new = name[:-3] if how == "cut" else name + "Renamed"
            pos = i.rfind(name)
            ids[k] = i[:pos] + new + i[pos + len(name):]
            return {**row, "fail_to_pass": json.dumps(ids)}
    return None


def mutants(row: dict[str, Any], n: int) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    lines = sorted({ln[1:].strip() for ln in row["patch"].splitlines()
                    if ln.startswith("+") and not ln.startswith("+++") and ln[1:].strip()},
                   key=lambda t: (-len(t), t))[:6]
    if len(lines) >= 3:
        out.append(("leak", {**row, "problem_statement": row["problem_statement"]
                             + "\n\nA fix that works:\n\n```\n" + "\n".join(lines) + "\n```\n"}))
    for how in ("cut", "renamed"):
        if (m := _renamed(row, how)) is not None:
            out.append((how, m))
    out.append(("copy", {**row, "patch": re.sub(r"^index \w+\.\.\w+", "index 0000000..1111111",
                                                row["patch"], flags=re.M)}))
    if n % 10 == 0:
        out.append(("gold-fails", dict(row)))
    if (sealed := _sealed(_lang(row))) is not None:
        gold_file, gold_text, test_file, test_text, test_id = sealed
        out.append(("sealed", {**row, "patch": _plus(row["patch"], gold_file, gold_text),
                               "test_patch": _plus(row["test_patch"], test_file, test_text),
                               "fail_to_pass": _graded(row, test_id)}))
    if (capturing := _capturing(_lang(row))) is not None:
        test_file, test_text, test_id = capturing
        out.append(("capturing", {**row, "test_patch": _plus(row["test_patch"], test_file,
                                                             test_text),
                                  "fail_to_pass": _graded(row, test_id)}))
    return [(kind, {**m, "instance_id": f"{row['instance_id']}--{kind}"}) for kind, m in out]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bench", type=Path)
    ap.add_argument("mirror")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--work", type=Path, default=None)
    args = ap.parse_args()
    rows = [json.loads(ln) for ln in args.bench.read_text().splitlines() if ln.strip()]
    rows = rows[:args.limit] if args.limit else rows
    work = args.work or Path(tempfile.mkdtemp(prefix="controls-"))
    work.mkdir(parents=True, exist_ok=True)
    kind_of: dict[str, str] = {}
    out_rows, gold_eval = [], {}
    for n, r in enumerate(rows):
        out_rows.append(r)
        kind_of[r["instance_id"]] = "original"
        gold_eval[r["instance_id"]] = True
        for kind, m in mutants(r, n):
            if kind == "gold-fails":
                gold_eval[r["instance_id"]] = False
                kind_of[r["instance_id"]] = "original+gold-fails"
                continue
            out_rows.append(m)
            kind_of[m["instance_id"]] = kind
    (work / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in out_rows))
    (work / "eval_results.json").write_text(json.dumps(gold_eval, sort_keys=True))
    (work / "bench.toml").write_text(
        'name = "controls"\n[source]\njsonl = "tasks.jsonl"\n'
        '[fields]\ninstance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
        'gold_patch = "patch"\ntest_patch = "test_patch"\nfail_to_pass = "fail_to_pass"\n'
        'prose = ["problem_statement", "requirements", "interface"]\n'
        f'[codebase]\nmirror = "{args.mirror}"\n[policy]\nunreadable = "exclude"\n'
        '[validity]\ngold_runs = ["eval_results.json"]\n')
    cmd = ["determinacy", "run", str(work / "bench.toml"), "--store", str(work / "store"),
           "--runs", str(work / "runs"), "--jobs", "2"]
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    got = subprocess.run(["determinacy", "sql", str(work / "bench.toml"), "--store",
                          str(work / "store"), "--format", "json",
                          "select instance_id, prescreen, verdict, proposed, evidence "
                          "from validity_checks"], check=True, capture_output=True, text=True)
    flags: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in json.loads(got.stdout):
        flags[f["instance_id"]].append(f)
    made, caught = Counter(), Counter()
    for iid, kind in kind_of.items():
        for k in kind.split("+")[1:] if kind.startswith("original") else [kind]:
            made[k] += 1
            caught[k] += any(f["prescreen"] == EXPECT[k] for f in flags[iid])
    print(f"{len(rows)} tasks, {len(out_rows) - len(rows)} mutants; work folder {work}")
    print(f"{'mutant':12} {'made':>5} {'caught':>7} {'recall':>7}")
    for k in EXPECT:
        if made[k]:
            print(f"{k:12} {made[k]:5} {caught[k]:7} {caught[k] / made[k]:7.0%}")
    originals = [i for i, k in kind_of.items() if k.startswith("original")]
    print(f"\nflags on the {len(originals)} originals (read each; a false one counts against "
          "its check):")
    per = Counter()
    for iid in originals:
        for f in flags[iid]:
            if f["prescreen"] == "gold-run" and kind_of[iid] == "original+gold-fails":
                continue  # the injected failure: a positive, counted above
            if f["prescreen"] == "duplicate" and "--" in f["evidence"]:
                continue
            per[f["prescreen"]] += 1
            print(f"- {iid}: {f['verdict']} ({f['proposed'] or 'proposes nothing'}): "
                  f"{f['evidence'][:300]}")
    for check in ("leaked", "test-ids", "gold-run", "underivable", "self-capturing",
                  "duplicate"):
        print(f"{check:15} flagged {per[check]:3} of {len(originals)} originals")


if __name__ == "__main__":
    main()
