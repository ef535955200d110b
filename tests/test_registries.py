"""Fetching pinned sources: each protocol's layout built for real on disk, read by file:// URL."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from determinacy.codebase.dependencies import registries
from determinacy.codebase.dependencies.manifests import Pin
from determinacy.codebase.dependencies.registries import Fetched, FetchError, fetch


def _zip(path: Path, members: dict[str, str]) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)
    return path.read_bytes()


def _tgz(path: Path, members: dict[str, str], extra: list[tarfile.TarInfo] = ()) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for info in extra:
            tar.addfile(info, io.BytesIO(b"evil") if info.isfile() else None)
    return path.read_bytes()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _completed(into: Path) -> list[Path]:
    return sorted(into.rglob("origin.json"))


# --- pypi ----------------------------------------------------------------------------------

def _simple(tmp: Path) -> Path:
    """A PEP 503 index: files in files/, the project's page at simple/widget-lib/index.html."""
    files = tmp / "files"
    wheel = _zip(files / "widget_lib-1.0-py3-none-any.whl",
                 {"pkg/__init__.py": "X = 1\n", "widget_lib-1.0.dist-info/METADATA": ""})
    _zip(files / "widget_lib-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {"pkg/_c.so": ""})
    _tgz(files / "widget-lib-1.0.tar.gz", {"widget-lib-1.0/pkg/__init__.py": "X = 1\n"})
    _zip(files / "widget_lib-2.0-py3-none-any.whl", {"pkg/__init__.py": "X = 2\n"})
    _tgz(files / "widget_lib-2.0.tar.gz", {"widget_lib-2.0/pkg/__init__.py": "X = 2\n"})
    _zip(files / "widget_lib-3.0-py2-none-any.whl", {"pkg/__init__.py": "X = 3\n"})
    _zip(files / "widget_lib-0.9-py3-none-any.whl", {"pkg/__init__.py": "X = 0\n"})
    # A package that ships compiled wheels only (PyQt5-sip, adblock).
    _zip(files / "widget_lib-4.0-cp311-cp311-win_amd64.whl", {"pkg/__init__.pyi": "X: int\n"})
    _zip(files / "widget_lib-4.0-cp311-cp311-manylinux_2_17_x86_64.whl",
         {"pkg/__init__.pyi": "X: int\n"})
    page = tmp / "simple" / "widget-lib" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        "<!DOCTYPE html><html><body>\n"
        '<a href="../../files/widget-lib-1.0.tar.gz">widget-lib-1.0.tar.gz</a>\n'
        '<a href="../../files/widget_lib-1.0-cp311-cp311-manylinux_2_17_x86_64.whl">c</a>\n'
        f'<a href="../../files/widget_lib-1.0-py3-none-any.whl#sha256={_sha256(wheel)}">w</a>\n'
        '<a href="../../files/widget_lib-2.0-py3-none-any.whl" data-yanked="">w</a>\n'
        f'<a href="{(files / "widget_lib-2.0.tar.gz").as_uri()}">absolute sdist</a>\n'
        '<a href="../../files/widget_lib-3.0-py2-none-any.whl">w</a>\n'
        '<a href="../../files/widget_lib-0.9-py3-none-any.whl" data-yanked="bad">w</a>\n'
        '<a href="../../files/widget_lib-4.0-cp311-cp311-win_amd64.whl">w</a>\n'
        '<a href="../../files/widget_lib-4.0-cp311-cp311-manylinux_2_17_x86_64.whl">w</a>\n'
        "</body></html>\n")
    return tmp / "simple"


def test_pypi_prefers_the_pure_wheel_and_checks_its_sha256(tmp_path: Path) -> None:
    simple = _simple(tmp_path)
    got = fetch(Pin("pypi", "Widget_Lib", "1.0", "uv.lock"), simple.as_uri(), tmp_path / "pk")
    assert got.path == (tmp_path / "pk/pypi/Widget_Lib@1.0/widget_lib-1.0-py3-none-any.whl")
    assert got.url == (tmp_path / "files/widget_lib-1.0-py3-none-any.whl").as_uri()
    assert got.root == ""
    assert zipfile.ZipFile(got.path).read("pkg/__init__.py") == b"X = 1\n"
    origin = json.loads((got.path.parent / "origin.json").read_text())
    assert origin["url"] == got.url and origin["sha256"] == _sha256(got.path.read_bytes())


def test_pypi_skips_a_yanked_wheel_for_the_sdist_and_extracts_it(tmp_path: Path) -> None:
    got = fetch(Pin("pypi", "widget-lib", "2.0", "uv.lock"), str(_simple(tmp_path)),
                tmp_path / "pk")
    assert got.path.name == "src" and got.root == "widget_lib-2.0/"
    assert (got.path / got.root / "pkg/__init__.py").read_text() == "X = 2\n"
    assert sorted(p.name for p in got.path.parent.iterdir()) == [".lock", "origin.json", "src"]


def test_pypi_other_none_any_wheels_and_yanked_ones_when_alone(tmp_path: Path) -> None:
    simple = _simple(tmp_path).as_uri()
    py2 = fetch(Pin("pypi", "widget-lib", "3.0", ""), simple, tmp_path / "pk")
    assert py2.path.name == "widget_lib-3.0-py2-none-any.whl"
    yanked = fetch(Pin("pypi", "widget-lib", "0.9", ""), simple, tmp_path / "pk")
    assert yanked.path.name == "widget_lib-0.9-py3-none-any.whl"
    # Compiled wheels only: its Python API is in them (Linux x86-64's first).
    compiled = fetch(Pin("pypi", "widget-lib", "4.0", ""), simple, tmp_path / "pk")
    assert compiled.path.name == "widget_lib-4.0-cp311-cp311-manylinux_2_17_x86_64.whl"


def test_a_second_fetch_reads_nothing_from_the_registry(tmp_path: Path, monkeypatch) -> None:
    simple = _simple(tmp_path)
    pin = Pin("pypi", "widget-lib", "1.0", "uv.lock")
    first = fetch(pin, simple.as_uri(), tmp_path / "pk")
    (tmp_path / "files").rename(tmp_path / "gone")
    simple.rename(tmp_path / "gone-simple")

    def no_reading(*a: object, **k: object) -> None:
        raise AssertionError("the registry was read")

    monkeypatch.setattr(registries, "urlopen", no_reading)
    assert fetch(pin, simple.as_uri(), tmp_path / "pk") == first


def test_a_sha256_mismatch_fails_and_completes_nothing(tmp_path: Path) -> None:
    simple = _simple(tmp_path)
    page = simple / "widget-lib" / "index.html"
    page.write_text(page.read_text().replace("#sha256=", "#sha256=00"))
    with pytest.raises(FetchError, match=r"pypi widget-lib@1\.0: .*sha256 mismatch"):
        fetch(Pin("pypi", "widget-lib", "1.0", ""), simple.as_uri(), tmp_path / "pk")
    assert _completed(tmp_path / "pk") == []
    assert [p.name for p in (tmp_path / "pk/pypi/widget-lib@1.0").iterdir()] == [".lock"]


def test_missing_packages_and_versions_name_the_pin(tmp_path: Path) -> None:
    simple = _simple(tmp_path).as_uri()
    with pytest.raises(FetchError, match=rf"pypi nothing-here@1\.0: .*not found in {simple}"):
        fetch(Pin("pypi", "nothing-here", "1.0", ""), simple, tmp_path / "pk")
    with pytest.raises(FetchError, match=r"widget-lib@7\.0: .*no wheel or sdist of version"):
        fetch(Pin("pypi", "widget-lib", "7.0", ""), simple, tmp_path / "pk")


def test_an_unpinned_version_or_an_unknown_ecosystem_fails(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="no exact version is pinned"):
        fetch(Pin("pypi", "widget-lib", "", "pyproject.toml"), "https://x", tmp_path)
    with pytest.raises(FetchError, match="unknown ecosystem"):
        fetch(Pin("cargo", "serde", "1.0.0", "Cargo.lock"), "https://x", tmp_path)
    assert list(tmp_path.iterdir()) == []


# --- npm -----------------------------------------------------------------------------------

def _npm_registry(tmp: Path) -> Path:
    """A registry on disk: left-pad's packument as a file, @acme/widget's as <dir>/index.json."""
    reg = tmp / "npm"
    left = _tgz(tmp / "tarballs/left-pad-1.3.0.tgz",
                {"package/package.json": "{}", "package/index.js": "module.exports = 1;\n"})
    widget = _tgz(tmp / "tarballs/widget-2.0.0.tgz", {"package/lib/w.js": "w\n"})
    sri = "sha512-" + base64.b64encode(hashlib.sha512(left).digest()).decode()
    reg.mkdir()
    (reg / "left-pad").write_text(json.dumps({"name": "left-pad", "versions": {"1.3.0": {
        "dist": {"tarball": (tmp / "tarballs/left-pad-1.3.0.tgz").as_uri(), "integrity": sri,
                 "shasum": hashlib.sha1(left).hexdigest()}}}}))
    (reg / "@acme%2fwidget").mkdir()
    (reg / "@acme%2fwidget/index.json").write_text(json.dumps({"versions": {"2.0.0": {
        "dist": {"tarball": "../../tarballs/widget-2.0.0.tgz",
                 "shasum": hashlib.sha1(widget).hexdigest()}}}}))
    return reg


def test_npm_packument_integrity_and_the_package_root(tmp_path: Path) -> None:
    reg = _npm_registry(tmp_path).as_uri()
    got = fetch(Pin("npm", "left-pad", "1.3.0", "package-lock.json"), reg, tmp_path / "pk")
    assert got == Fetched(tmp_path / "pk/npm/left-pad@1.3.0/src",
                          (tmp_path / "tarballs/left-pad-1.3.0.tgz").as_uri(), "package/")
    assert (got.path / got.root / "index.js").read_text() == "module.exports = 1;\n"
    scoped = fetch(Pin("npm", "@acme/widget", "2.0.0", ""), reg, tmp_path / "pk")
    assert scoped.path == tmp_path / "pk/npm/%40acme%2Fwidget@2.0.0/src"
    assert (scoped.path / "package/lib/w.js").read_text() == "w\n"


def test_npm_integrity_mismatch_and_a_missing_version(tmp_path: Path) -> None:
    reg = _npm_registry(tmp_path)
    _tgz(tmp_path / "tarballs/left-pad-1.3.0.tgz", {"package/index.js": "tampered\n"})
    with pytest.raises(FetchError, match=r"npm left-pad@1\.3\.0: .*sha(512|1) mismatch"):
        fetch(Pin("npm", "left-pad", "1.3.0", ""), reg.as_uri(), tmp_path / "pk")
    assert _completed(tmp_path / "pk") == []
    with pytest.raises(FetchError, match=r"not found in .*no version 9\.9\.9 in the packument"):
        fetch(Pin("npm", "left-pad", "9.9.9", ""), reg.as_uri(), tmp_path / "pk")


def test_npm_tarball_folder_with_a_scoped_package(tmp_path: Path) -> None:
    folder = tmp_path / "packed"
    _tgz(folder / "acme-widget-2.0.0.tgz", {"widget/index.js": "w\n"})  # not `package/`
    _tgz(folder / "plain-1.0.0.tgz", {"package/index.js": "p\n"})
    got = fetch(Pin("npm", "@acme/widget", "2.0.0", ""), str(folder), tmp_path / "pk")
    assert got.root == "widget/" and (got.path / "widget/index.js").read_text() == "w\n"
    assert got.url == (folder / "acme-widget-2.0.0.tgz").as_uri()
    plain = fetch(Pin("npm", "plain", "1.0.0", ""), folder.as_uri(), tmp_path / "pk")
    assert (plain.path / plain.root / "index.js").read_text() == "p\n"
    with pytest.raises(FetchError, match=r"npm absent@1\.0\.0: .*absent-1\.0\.0\.tgz: not found"):
        fetch(Pin("npm", "absent", "1.0.0", ""), str(folder), tmp_path / "pk")


def _evil(kind: str, tmp: Path) -> tarfile.TarInfo:
    """A member leading to `tmp`/evil (the archive is extracted two folders below `tmp`)."""
    if kind == "dotdot":
        info = tarfile.TarInfo("package/../../../../../evil")
    elif kind == "absolute":
        info = tarfile.TarInfo(str(tmp / "evil"))
    else:
        info = tarfile.TarInfo("package/link")
        info.type = tarfile.SYMTYPE
        info.linkname = "../../../../../evil" if kind == "symlink" else str(tmp / "evil")
        return info
    info.size = 4
    return info


@pytest.mark.parametrize("filtered", [True, False], ids=["data-filter", "own-checks"])
@pytest.mark.parametrize("kind", ["dotdot", "absolute", "symlink", "absolute-symlink"])
def test_an_unsafe_tarball_is_refused_whole(tmp_path: Path, monkeypatch, kind: str,
                                             filtered: bool) -> None:
    """A member leading outside fails the fetch (it is not skipped): nothing lands outside."""
    monkeypatch.setattr(registries, "HAS_DATA_FILTER", filtered and registries.HAS_DATA_FILTER)
    folder = tmp_path / "a" / "b"
    evil = _evil(kind, tmp_path)
    _tgz(folder / "bad-1.0.0.tgz", {"package/index.js": "x\n"}, [evil])
    with pytest.raises(FetchError, match=r"npm bad@1\.0\.0: .*unsafe tarball member refused"):
        fetch(Pin("npm", "bad", "1.0.0", ""), str(folder), tmp_path / "pk")
    assert _completed(tmp_path / "pk") == []
    assert not (tmp_path / "evil").exists() and not (tmp_path / "pk/npm/evil").exists()


@pytest.mark.skipif(not registries.HAS_DATA_FILTER, reason="tarfile has no data filter")
@pytest.mark.parametrize("kind", ["dotdot", "symlink", "absolute-symlink"])
def test_the_data_filter_alone_refuses_too(tmp_path: Path, monkeypatch, kind: str) -> None:
    """The second guard: with the module's own checks out of the way, tarfile's filter."""
    monkeypatch.setattr(registries, "_checked", lambda url, tar, dest: tar.getmembers())
    folder = tmp_path / "a" / "b"
    _tgz(folder / "bad-1.0.0.tgz", {"package/index.js": "x\n"}, [_evil(kind, tmp_path)])
    with pytest.raises(FetchError, match="unsafe tarball member refused"):
        fetch(Pin("npm", "bad", "1.0.0", ""), str(folder), tmp_path / "pk")
    assert not (tmp_path / "evil").exists() and _completed(tmp_path / "pk") == []


def test_a_corrupt_tarball_fails(tmp_path: Path) -> None:
    (tmp_path / "packed").mkdir()
    (tmp_path / "packed/junk-1.0.0.tgz").write_bytes(b"not gzip at all")
    with pytest.raises(FetchError, match="the tarball will not open"):
        fetch(Pin("npm", "junk", "1.0.0", ""), str(tmp_path / "packed"), tmp_path / "pk")


# --- go ------------------------------------------------------------------------------------

TOML = "github.com/BurntSushi/toml"


def _goproxy(root: Path) -> Path:
    _zip(root / "github.com/!burnt!sushi/toml/@v/v1.2.0.zip",
         {f"{TOML}@v1.2.0/toml.go": "package toml\n", f"{TOML}@v1.2.0/go.mod": "module x\n"})
    return root


def test_go_case_escaped_module_zip_read_in_place(tmp_path: Path) -> None:
    proxy = _goproxy(tmp_path / "proxy")
    got = fetch(Pin("go", TOML, "v1.2.0", "go.mod"), proxy.as_uri(), tmp_path / "pk")
    assert got.path == tmp_path / "pk/go/github.com%2FBurntSushi%2Ftoml@v1.2.0/v1.2.0.zip"
    assert got.url == (proxy / "github.com/!burnt!sushi/toml/@v/v1.2.0.zip").as_uri()
    assert got.root == f"{TOML}@v1.2.0/"
    assert zipfile.ZipFile(got.path).read(got.root + "toml.go") == b"package toml\n"


def test_goproxy_lists_fall_through_as_go_does(tmp_path: Path) -> None:
    empty, good = tmp_path / "empty", _goproxy(tmp_path / "good")
    empty.mkdir()
    pin = Pin("go", TOML, "v1.2.0", "go.mod")
    got = fetch(pin, f"{empty.as_uri()},{good.as_uri()}", tmp_path / "pk1")
    assert got.url.startswith(good.as_uri())
    # An error other than not-found stops a `,` list and not a `|` one.
    broken = tmp_path / "broken"
    (broken / "github.com/!burnt!sushi/toml/@v/v1.2.0.zip").mkdir(parents=True)
    with pytest.raises(FetchError, match="cannot read"):
        fetch(pin, f"{broken.as_uri()},{good.as_uri()}", tmp_path / "pk2")
    assert fetch(pin, f"{broken.as_uri()}|{good.as_uri()}", tmp_path / "pk3").url == got.url


def test_goproxy_off_direct_and_nowhere(tmp_path: Path) -> None:
    pin = Pin("go", TOML, "v1.2.0", "go.mod")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(FetchError, match="GOPROXY is off"):
        fetch(pin, "off", tmp_path / "pk")
    with pytest.raises(FetchError, match=r"not found in .*`direct` .* is not supported"):
        fetch(pin, f"{empty.as_uri()},direct", tmp_path / "pk")
    with pytest.raises(FetchError, match=rf"go {TOML}@v1\.2\.0: .*not found in"):
        fetch(pin, empty.as_uri(), tmp_path / "pk")


def test_a_go_zip_outside_its_module_prefix_or_not_a_zip_fails(tmp_path: Path) -> None:
    proxy = tmp_path / "proxy"
    _zip(proxy / "example.com/m/@v/v1.0.0.zip", {"elsewhere/m.go": ""})
    (proxy / "example.com/n/@v").mkdir(parents=True)
    (proxy / "example.com/n/@v/v1.0.0.zip").write_bytes(b"no zip")
    with pytest.raises(FetchError, match="members lie outside example.com/m@v1.0.0/"):
        fetch(Pin("go", "example.com/m", "v1.0.0", ""), str(proxy), tmp_path / "pk")
    with pytest.raises(FetchError, match="not a zip archive"):
        fetch(Pin("go", "example.com/n", "v1.0.0", ""), str(proxy), tmp_path / "pk")
    assert _completed(tmp_path / "pk") == []


# --- maven ---------------------------------------------------------------------------------

def _m2(root: Path) -> Path:
    jar = _zip(root / "org/example/lib/1.0/lib-1.0-sources.jar",
               {"org/example/Lib.java": "class Lib {}\n"})
    (root / "org/example/lib/1.0/lib-1.0-sources.jar.sha1").write_text(
        hashlib.sha1(jar).hexdigest() + "  lib-1.0-sources.jar\n")
    return root


def test_maven_sources_jar_checked_against_its_sha1(tmp_path: Path) -> None:
    m2 = _m2(tmp_path / "m2")
    got = fetch(Pin("maven", "org.example:lib", "1.0", "pom.xml"), m2.as_uri(), tmp_path / "pk")
    assert got.path == tmp_path / "pk/maven/org.example%3Alib@1.0/lib-1.0-sources.jar"
    assert got.root == ""
    assert zipfile.ZipFile(got.path).read("org/example/Lib.java") == b"class Lib {}\n"


def test_maven_checksum_mismatch_sha256_sibling_and_bad_names(tmp_path: Path) -> None:
    m2 = _m2(tmp_path / "m2")
    folder = m2 / "org/example/lib/1.0"
    (folder / "lib-1.0-sources.jar.sha1").write_text("0" * 40 + "\n")
    with pytest.raises(FetchError, match="sha1 mismatch"):
        fetch(Pin("maven", "org.example:lib", "1.0", ""), m2.as_uri(), tmp_path / "pk")
    assert _completed(tmp_path / "pk") == []
    (folder / "lib-1.0-sources.jar.sha1").unlink()
    (folder / "lib-1.0-sources.jar.sha256").write_text(
        _sha256((folder / "lib-1.0-sources.jar").read_bytes()))
    assert fetch(Pin("maven", "org.example:lib", "1.0", ""), str(m2), tmp_path / "pk").root == ""
    with pytest.raises(FetchError, match="group:artifact"):
        fetch(Pin("maven", "nogroup", "1.0", ""), str(m2), tmp_path / "pk")
    with pytest.raises(FetchError, match=r"maven org\.example:lib@2\.0: .*not found in"):
        fetch(Pin("maven", "org.example:lib", "2.0", ""), str(m2), tmp_path / "pk")


# --- what any protocol shares --------------------------------------------------------------

def test_leftovers_of_an_interrupted_fetch_are_cleared(tmp_path: Path) -> None:
    m2 = _m2(tmp_path / "m2")
    entry = tmp_path / "pk/maven/org.example%3Alib@1.0"
    (entry / "src").mkdir(parents=True)
    (entry / ".tmp-123.part").write_bytes(b"half")
    (entry / "lib-1.0-sources.jar").write_bytes(b"half a jar")  # renamed, origin not written
    got = fetch(Pin("maven", "org.example:lib", "1.0", ""), str(m2), tmp_path / "pk")
    assert sorted(p.name for p in entry.iterdir()) == [".lock", "lib-1.0-sources.jar",
                                                       "origin.json"]
    assert zipfile.is_zipfile(got.path)


@pytest.mark.parametrize(("error", "reason"), [
    (urllib.error.HTTPError("u", 404, "Not Found", None, None), "not found in https://repo"),
    (urllib.error.HTTPError("u", 410, "Gone", None, None), "not found in https://repo"),
    (urllib.error.HTTPError("u", 503, "Unavailable", None, None), "HTTP 503 Unavailable"),
    (TimeoutError(), "timed out after 5 s"),
    (urllib.error.URLError(TimeoutError()), "timed out after 5 s"),
    (urllib.error.URLError("no route"), "cannot read: no route"),
])
def test_http_errors_become_one_line_reasons(tmp_path: Path, monkeypatch, error: Exception,
                                             reason: str) -> None:
    seen: list[str] = []

    def failing(request: urllib.request.Request, timeout: float) -> None:
        seen.append(request.full_url)
        raise error

    monkeypatch.setattr(registries, "urlopen", failing)
    with pytest.raises(FetchError) as e:
        fetch(Pin("go", TOML, "v1.2.0", ""), "https://repo", tmp_path, timeout=5)
    url = "https://repo/github.com/!burnt!sushi/toml/@v/v1.2.0.zip"
    assert seen == [url]
    assert str(e.value) == f"go {TOML}@v1.2.0: {url}: {reason}"
    assert "\n" not in str(e.value)


def test_http_urls_per_protocol(tmp_path: Path, monkeypatch) -> None:
    seen: list[str] = []

    def missing(request: urllib.request.Request, timeout: float) -> None:
        seen.append(request.full_url)
        raise urllib.error.HTTPError(request.full_url, 404, "Not Found", {}, None)

    monkeypatch.setattr(registries, "urlopen", missing)
    for pin, registry in [(Pin("pypi", "Zope.Interface", "5.0", ""), "https://pypi.org/simple/"),
                          (Pin("npm", "@types/node", "20.0.0", ""), "https://registry.npmjs.org"),
                          (Pin("maven", "org.ow2.asm:asm", "9.6", ""), "https://m/maven2")]:
        with pytest.raises(FetchError, match="not found in"):
            fetch(pin, registry, tmp_path)
    assert seen == ["https://pypi.org/simple/zope-interface/",
                    "https://registry.npmjs.org/@types%2fnode",
                    "https://m/maven2/org/ow2/asm/asm/9.6/asm-9.6-sources.jar.sha1",
                    "https://m/maven2/org/ow2/asm/asm/9.6/asm-9.6-sources.jar.sha256",
                    "https://m/maven2/org/ow2/asm/asm/9.6/asm-9.6-sources.jar"]
