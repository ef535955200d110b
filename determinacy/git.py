"""Running git so that nothing but its arguments decides the answer, and nothing it reads runs.

Every call gets an environment without inherited `GIT_*` variables, runs from a fixed folder
(the git directory itself) and has a timeout. Reads also ignore the system and global config
and forbid every transport: a partial-clone mirror would otherwise lazy-fetch a missing blob,
running whatever `remote.*.uploadpack` or `core.sshCommand` its config names and writing into
the mirror. Clones and fetches may use only the transports `check_transport` allows.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from determinacy.errors import CaseFailure

# Seconds; a read of one tree takes well under a second on real mirrors.
READ_TIMEOUT = 600.0


def clean_env(*, isolated: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", SSH_ASKPASS="true",
               GIT_NO_LAZY_FETCH="1", GIT_CONFIG_NOSYSTEM="1", GIT_PROTOCOL_FROM_USER="0")
    if isolated:
        # A read sees the objects the commit names, as a skeptic's plain clone does: not the
        # swaps of `refs/replace/` (which `clone --mirror` copies from anyone who can push),
        # nor the parents a grafts file invents.
        env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_NO_REPLACE_OBJECTS="1",
                   GIT_GRAFT_FILE=os.devnull)
    return env


# Belt and braces with GIT_NO_LAZY_FETCH (which git < 2.44 ignores): no transport at all.
# The commit-graph is a cache of each commit's tree and parents that a clone never copies:
# an edited one would make git read another tree than the commit names.
_READ_CONFIG = ("-c", "protocol.allow=never", "-c", "core.fsmonitor=false",
                "-c", "core.commitGraph=false", "-c", "advice.graftFileDeprecated=false")
_TRANSFER_CONFIG = ("-c", "protocol.allow=never", "-c", "protocol.https.allow=always",
                    "-c", "protocol.ssh.allow=always", "-c", "protocol.file.allow=always",
                    "-c", "core.fsmonitor=false")


def git_dir_of(path: Path) -> Path | None:
    """The git directory of a bare repository or a clone at `path` (None: neither)."""
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    if (path / ".git" / "HEAD").is_file():
        return path / ".git"
    return None


def run(git_dir: Path, *args: str, input: bytes | None = None,
        timeout: float = READ_TIMEOUT) -> subprocess.CompletedProcess[bytes]:
    """A read-only git command on `git_dir` (never raises on a non-zero exit)."""
    cmd = ["git", f"--git-dir={git_dir}", *_READ_CONFIG, *args]
    try:
        return subprocess.run(cmd, capture_output=True, env=clean_env(isolated=True), cwd=git_dir,
                              input=input, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CaseFailure(f"git {args[0]} timed out after {timeout:g} s in {git_dir}",
                        transient=True) from None


def popen(git_dir: Path, *args: str) -> subprocess.Popen[bytes]:
    """A streaming read-only git command (stdin and stdout are pipes; its answers say what
    failed, so stderr is dropped rather than left to fill a pipe nobody reads)."""
    return subprocess.Popen(["git", f"--git-dir={git_dir}", *_READ_CONFIG, *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=clean_env(isolated=True),
                            cwd=git_dir)


def transfer(args: Sequence[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[bytes]:
    """`git clone` / `git fetch` with the allowed transports only, under a timeout."""
    cmd = ["git", *_TRANSFER_CONFIG, *args]
    try:
        return subprocess.run(cmd, capture_output=True, env=clean_env(isolated=False),
                              cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise CaseFailure(f"git {args[0]} timed out after {timeout:g} s", transient=True) from None


def stderr_reason(stderr: bytes) -> str:
    """What git said went wrong: its `fatal:`/`error:` lines, else its last lines."""
    lines = [ln.strip() for ln in stderr.decode(errors="replace").splitlines() if ln.strip()]
    told = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    return " ".join(told or lines[-3:]) or "no message"


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
ALLOWED_SCHEMES = ("https", "ssh", "git+ssh", "ssh+git", "file")


def check_transport(url: str) -> str | None:
    """Why git must not clone from `url` (None when it may): only https, ssh, file and local
    paths. `ext::` runs a command and `fd::` talks to inherited descriptors; other schemes
    (http, git) are unauthenticated."""
    if "::" in url:
        return f"transport {url.split('::', 1)[0]!r}:: is not allowed (remote helpers run code)"
    m = _SCHEME.match(url)
    if m:
        if m.group(1).lower() not in ALLOWED_SCHEMES:
            return (f"transport {m.group(1)!r} is not allowed "
                    f"(use one of {', '.join(ALLOWED_SCHEMES)} or a local path)")
        return None
    if url.startswith("-"):
        return "a clone URL cannot start with '-'"
    return None  # scp-like `host:path` (ssh) or a local path
