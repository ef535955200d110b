"""Where each language's standard library is on this machine, as sources a solver reads.

A name the gold sets on a standard type (a TLS config field, an `io` method a test double
implements) is not unknowable because the repository lacks it. The sources are found from
the toolchain on the machine (the running Python's, the JDK's `src.zip`, `go env GOROOT`,
the global npm root's `typescript/lib`, rustc's `rust-src`, the C and C++ headers) or from
`[codebase] stdlib_paths`; what was read, with its version, is named in every receipt.
"""

from __future__ import annotations

import functools
import os
import platform
import shlex
import shutil
import subprocess
import sysconfig
import zipfile
from collections.abc import Callable
from pathlib import Path

from determinacy.codebase.libraries import Source
from determinacy.config import STDLIB_FAMILIES, Config

# The standard library a language's files read: the languages of `determinacy.languages`.
FAMILY = {"python": "python", "go": "go", "java": "java", "javascript": "ecma",
          "typescript": "ecma", "tsx": "ecma", "rust": "rust", "c": "c", "cpp": "c",
          "php": "php", "ruby": "ruby"}
FAMILIES = STDLIB_FAMILIES

# Which files of a family's sources are its library: (suffixes kept, folder names left out
# at any depth: a library's own tests are no API).
_FILES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "python": ((".py", ".pyi"), frozenset({"site-packages", "dist-packages", "test", "tests",
                                          "idle_test", "__pycache__"})),
    "go": ((".go",), frozenset({"testdata", "vendor", "cmd"})),
    "java": ((".java",), frozenset()),
    "ecma": ((".d.ts",), frozenset()),
    "rust": ((".rs",), frozenset({"tests", "benches"})),
    "c": (("",), frozenset()),
    "php": ((".php", ".stub"), frozenset({"tests"})),
    "ruby": ((".rb",), frozenset({"test", "tests"})),
}


@functools.cache
def wanted(family: str) -> Callable[[str], bool]:
    suffixes, left_out = _FILES[family]

    def keep(path: str) -> bool:
        parts = path.split("/")
        if left_out.intersection(parts[:-1]) or path.endswith("_test.go"):
            return False
        return any(parts[-1].endswith(s) for s in suffixes)

    return keep


@functools.cache
def pruned(family: str) -> Callable[[str], bool]:
    left_out = _FILES[family][1]
    return lambda rel: rel.rsplit("/", 1)[-1] in left_out


def source(family: str, label: str, path: Path, roots: tuple[str, ...] = ("",),
           version: str = "") -> Source:
    """The family's files under `path` (a folder or a zip), with the grep that reads them."""
    grep = _grep(family, path, roots)
    return Source(label=label, path=path, wanted=wanted(family), pruned=pruned(family),
                  roots=roots, grep=grep, words=_words(grep), version=version)


# Prints nothing when fewer than {floor} files are listed on its input.
_FEWER = "| awk 'END {if (NR >= {floor}) print NR \" files\"}'"


def _words(grep: str) -> str:
    """The grep listing the files that hold the name as a whole word, counted."""
    if grep.startswith("unzip -p "):
        archive, members = grep.removeprefix("unzip -p ").split(" | ")[0].split(" ", 1)
        return f"zipgrep -lw {{constant}} {archive} {members} {_FEWER}"
    return grep.replace("grep -rnF", "grep -rlwF", 1).replace("grep -nF", "grep -lwF") \
        + f" {_FEWER}"


def _grep(family: str, path: Path, roots: tuple[str, ...]) -> str:
    suffixes, left_out = _FILES[family]
    if zipfile.is_zipfile(path):
        members = " ".join(shlex.quote(f"*{s}") for s in suffixes if s)
        return f"unzip -p {shlex.quote(str(path))} {members} | grep -nF -e {{constant}}"
    opts = [*(f"--include={shlex.quote('*' + s)}" for s in suffixes if s),
            *(f"--exclude-dir={d}" for d in sorted(left_out))]
    if family == "go":
        opts.append("--exclude='*_test.go'")
    where = " ".join(shlex.quote(str(path / r) if r else str(path)) for r in roots)
    return f"grep -rnF {' '.join(opts)} -e {{constant}} -- {where}".replace("  ", " ")


@functools.cache
def configured(family: str, path: Path) -> Source:
    return source(family, f"{family} standard library at {path}", path)


def for_config(cfg: Config, family: str) -> Source | None:
    """What a config reads as the family's library: its `stdlib_paths`, else what is found."""
    given = cfg.codebase.stdlib_paths.get(family)
    return configured(family, cfg.resolve(given)) if given else find(family)


def find(family: str) -> Source | None:
    """The family's sources the machine has, or None."""
    return _FOUND.get(family, lambda: None)()


@functools.cache
def _python() -> Source | None:
    root = Path(sysconfig.get_paths()["stdlib"])
    if not root.is_dir():
        return None
    return source("python", f"python {platform.python_version()} standard library at {root}",
                  root, version=platform.python_version())


@functools.cache
def _java() -> Source | None:
    homes = [os.environ.get("JAVA_HOME", "")]
    for tool in ("javac", "java"):
        if (found := shutil.which(tool)) is not None:
            homes.append(str(Path(found).resolve().parent.parent))
    for home in filter(None, homes):
        z = Path(home) / "lib" / "src.zip"
        if z.is_file():
            version = _release(Path(home) / "release", "JAVA_VERSION")
            return source("java", f"java {version or '(version unknown)'} standard library "
                          f"at {z.resolve()}", z.resolve(), version=version)
    return None


@functools.cache
def _go() -> Source | None:
    root = os.environ.get("GOROOT") or _output(["go", "env", "GOROOT"])
    if not root or not (Path(root) / "src").is_dir():
        return None
    version = ""
    try:
        version = (Path(root) / "VERSION").read_text().split()[0]
    except (OSError, IndexError):
        version = _output(["go", "env", "GOVERSION"])
    return source("go", f"{version or 'go (version unknown)'} standard library at {root}",
                  Path(root) / "src", version=version.removeprefix("go"))


@functools.cache
def _ecma() -> Source | None:
    """TypeScript's `lib.*.d.ts` (ECMAScript and the DOM) and `@types/node`, where npm keeps
    global packages: the names a JavaScript or TypeScript solver's editor offers."""
    root = _output(["npm", "root", "-g"])
    if not root or not (Path(root) / "typescript" / "lib").is_dir():
        return None
    return source("ecma", f"typescript lib and @types/node at {root}", Path(root),
                  tuple(r for r in ("typescript/lib", "@types/node") if (Path(root) / r).is_dir()))


@functools.cache
def _rust() -> Source | None:
    sysroot = _output(["rustc", "--print", "sysroot"])
    lib = Path(sysroot) / "lib" / "rustlib" / "src" / "rust" / "library" if sysroot else None
    if lib is None or not lib.is_dir():
        return None
    version = _output(["rustc", "--version"]).split(" (")[0]
    return source("rust", f"{version} standard library (rust-src) at {lib}", lib,
                  version=version.removeprefix("rustc "))


@functools.cache
def _c() -> Source | None:
    """The C library's and the C++ standard library's headers (not every package's)."""
    root = Path("/usr/include")
    if not (root / "stdio.h").is_file():
        return None
    arch = sysconfig.get_config_var("MULTIARCH") or ""

    kept = ("sys", "bits", "c++", arch)

    def keep(path: str) -> bool:
        return ("/" not in path and path.endswith(".h")) or path.split("/", 1)[0] in kept

    dirs = " ".join(shlex.quote(str(root / d)) for d in kept if (root / d).is_dir())
    top = shlex.quote(str(root))
    return Source(label=f"C and C++ standard headers at {root}", path=root, wanted=keep,
                  pruned=lambda rel: rel.split("/", 1)[0] not in kept,
                  grep=f"grep -nF -e {{constant}} {top}/*.h; grep -rnF -e {{constant}} -- {dirs}",
                  words=f"{{ grep -lwF -e {{constant}} {top}/*.h; grep -rlwF -e {{constant}} -- "
                  f"{dirs}; }} {_FEWER}")


@functools.cache
def _ruby() -> Source | None:
    root = _output(["ruby", "-e", "print RbConfig::CONFIG['rubylibdir']"])
    if not root or not Path(root).is_dir():
        return None
    return source("ruby", f"ruby standard library at {root}", Path(root))


_FOUND: dict[str, Callable[[], Source | None]] = {
    "python": _python, "java": _java, "go": _go, "ecma": _ecma, "rust": _rust, "c": _c,
    "ruby": _ruby}


def _release(path: Path, key: str) -> str:
    try:
        for line in path.read_text().splitlines():
            if line.startswith(f"{key}="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def _output(argv: list[str]) -> str:
    """A toolchain's one-line answer, "" when it is not installed or fails."""
    if shutil.which(argv[0]) is None:
        return ""
    try:
        p = subprocess.run(argv, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.decode(errors="replace").strip() if p.returncode == 0 else ""
