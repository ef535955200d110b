"""Which direct dependencies a tree declares, at which exact version its lockfiles pin them:
small real-looking manifests and lockfiles of each ecosystem, inline."""

from __future__ import annotations

import pytest

from determinacy.codebase.dependencies.manifests import Pin, pins, unparsed, wanted

GO_MOD = b"""module github.com/acme/widgets

go 1.21

toolchain go1.21.5

require (
\tgithub.com/pkg/errors v0.9.1
\tgithub.com/spf13/cobra v1.8.0
\tgolang.org/x/sys v0.0.0-20231006140011-7918f672742d // indirect
\tgithub.com/golang/protobuf v1.5.3 // indirect; kept for grpc
\tgithub.com/docker/docker v24.0.7+incompatible
\tgithub.com/acme/shared v0.3.0
\tgithub.com/old/thing v1.0.0
)

require golang.org/x/exp v0.0.0-20231110203233-9a3e6036ecaa

replace github.com/pkg/errors => github.com/acme/errors v0.9.2-fix

replace (
\tgithub.com/acme/shared => ../shared
\tgithub.com/old/thing v1.0.0 => github.com/new/thing v1.1.0
)

exclude github.com/spf13/cobra v1.7.0
"""


def test_go_mod_requires_without_indirect_with_replaces() -> None:
    assert pins({"go.mod": GO_MOD}) == [
        Pin("go", "github.com/acme/errors", "v0.9.2-fix", "go.mod"),
        Pin("go", "github.com/docker/docker", "v24.0.7+incompatible", "go.mod"),
        Pin("go", "github.com/new/thing", "v1.1.0", "go.mod"),
        Pin("go", "github.com/spf13/cobra", "v1.8.0", "go.mod"),
        Pin("go", "golang.org/x/exp", "v0.0.0-20231110203233-9a3e6036ecaa", "go.mod"),
    ]


def test_go_replace_of_another_version_does_not_apply() -> None:
    mod = (b"module m\n\nrequire example.com/a v1.2.0\n\n"
           b"replace example.com/a v1.0.0 => example.com/b v1.0.1\n")
    assert pins({"go.mod": mod}) == [Pin("go", "example.com/a", "v1.2.0", "go.mod")]


REQUIREMENTS = b"""# production
-r base.txt
-c constraints.txt
--index-url https://pypi.example.com/simple
-e git+https://github.com/acme/tool.git#egg=tool
-e .
Django==4.2.7  # LTS
requests[security]>=2.31,<3
zope.interface==6.1 ; python_version >= "3.8"
Flask_SQLAlchemy===3.1.1
numpy==1.26.* \\
    # a wildcard pins nothing
gunicorn==21.2.0 \\
    --hash=sha256:3213aa5e8c24949e792bcacfc176fef362e7aac80b76c56f6b5122bf350722f0
./local/pkg
https://example.com/wheels/thing-1.0-py3-none-any.whl
pkg @ https://example.com/pkg-1.0.tar.gz
"""


def test_requirements_pins_and_ranges() -> None:
    assert pins({"requirements.txt": REQUIREMENTS}) == [
        Pin("pypi", "django", "4.2.7", "requirements.txt"),
        Pin("pypi", "flask-sqlalchemy", "3.1.1", "requirements.txt"),
        Pin("pypi", "gunicorn", "21.2.0", "requirements.txt"),
        Pin("pypi", "numpy", "", "requirements.txt", "==1.26.*"),
        Pin("pypi", "requests", "", "requirements.txt", ">=2.31,<3"),
        Pin("pypi", "zope-interface", "6.1", "requirements.txt"),
    ]


PYPROJECT_PEP621 = b"""[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "acme-widgets"
version = "1.0.0"
requires-python = ">=3.11"
dependencies = [
    "click>=8.1",
    "PyYAML==6.0.1",
    "attrs[tests] (>=23.1)",
    "tomli>=2; python_version < '3.11'",
]

[project.optional-dependencies]
fast = ["orjson>=3.9"]
all = ["acme-widgets[fast]"]

[dependency-groups]
dev = ["pytest>=8", {include-group = "lint"}]
lint = ["ruff==0.4.4"]
"""

UV_LOCK = b"""version = 1
requires-python = ">=3.11"

[[package]]
name = "acme-widgets"
version = "1.0.0"
source = { editable = "." }

[[package]]
name = "click"
version = "8.1.7"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "orjson"
version = "3.9.10"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "pytest"
version = "8.0.0"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "pyyaml"
version = "6.0.1"
source = { registry = "https://pypi.org/simple" }
"""


def test_pyproject_pep621_without_lock() -> None:
    assert pins({"pyproject.toml": PYPROJECT_PEP621}) == [
        Pin("pypi", "attrs", "", "pyproject.toml", ">=23.1"),
        Pin("pypi", "click", "", "pyproject.toml", ">=8.1"),
        Pin("pypi", "orjson", "", "pyproject.toml", ">=3.9"),
        Pin("pypi", "pytest", "", "pyproject.toml", ">=8"),
        Pin("pypi", "pyyaml", "6.0.1", "pyproject.toml"),
        Pin("pypi", "ruff", "0.4.4", "pyproject.toml"),
        Pin("pypi", "tomli", "", "pyproject.toml", ">=2"),
    ]


def test_uv_lock_pins_the_pyproject_next_to_it() -> None:
    got = pins({"pyproject.toml": PYPROJECT_PEP621, "uv.lock": UV_LOCK})
    assert {p.name: p.version for p in got} == {
        "attrs": "", "click": "8.1.7", "orjson": "3.9.10", "pytest": "8.0.0", "pyyaml": "6.0.1",
        "ruff": "0.4.4", "tomli": ""}


PYPROJECT_POETRY = b"""[tool.poetry]
name = "acme-api"
version = "0.1.0"

[tool.poetry.dependencies]
python = "^3.11"
fastapi = "^0.104.1"
pydantic = {version = "2.5.2", extras = ["email"]}
uvicorn = "0.24.0"
shared = {path = "../shared", develop = true}
tool = {git = "https://github.com/acme/tool.git", branch = "main"}

[tool.poetry.group.test.dependencies]
pytest-asyncio = "*"

[tool.poetry.dev-dependencies]
Black = ">=23"
"""

POETRY_LOCK = b"""# This file is automatically @generated by Poetry 1.7.1.

[[package]]
name = "black"
version = "23.11.0"
description = "The uncompromising code formatter."
optional = false
python-versions = ">=3.8"

[[package]]
name = "fastapi"
version = "0.104.1"
description = "FastAPI framework"
optional = false
python-versions = ">=3.8"

[package.dependencies]
pydantic = ">=1.7.4"

[[package]]
name = "pydantic"
version = "2.5.2"
description = "Data validation"
optional = false
python-versions = ">=3.7"

[[package]]
name = "pytest-asyncio"
version = "0.21.1"
description = "Pytest support for asyncio"
optional = false
python-versions = ">=3.7"

[metadata]
lock-version = "2.0"
python-versions = "^3.11"
content-hash = "0123456789abcdef"
"""


def test_poetry_tables_and_poetry_lock() -> None:
    assert pins({"api/pyproject.toml": PYPROJECT_POETRY, "api/poetry.lock": POETRY_LOCK}) == [
        Pin("pypi", "black", "23.11.0", "api/pyproject.toml"),
        Pin("pypi", "fastapi", "0.104.1", "api/pyproject.toml"),
        Pin("pypi", "pydantic", "2.5.2", "api/pyproject.toml"),
        Pin("pypi", "pytest-asyncio", "0.21.1", "api/pyproject.toml"),
        Pin("pypi", "uvicorn", "0.24.0", "api/pyproject.toml"),  # bare: exact to poetry
    ]


PIPFILE = b"""[[source]]
url = "https://pypi.org/simple"
verify_ssl = true
name = "pypi"

[packages]
requests = "*"
Django = {version = "==4.2.7", extras = ["bcrypt"]}
celery = ">=5.3"
mylib = {path = "./mylib", editable = true}

[dev-packages]
pytest = "*"

[requires]
python_version = "3.11"
"""

PIPFILE_LOCK = b"""{
    "_meta": {"hash": {"sha256": "abc"}, "pipfile-spec": 6, "requires": {"python_version": "3.11"}},
    "default": {
        "celery": {"hashes": ["sha256:1"], "index": "pypi", "version": "==5.3.6"},
        "django": {"hashes": ["sha256:2"], "index": "pypi", "version": "==4.2.7"},
        "requests": {"hashes": ["sha256:3"], "index": "pypi", "version": "==2.31.0"},
        "mylib": {"editable": true, "path": "./mylib"}
    },
    "develop": {
        "pytest": {"hashes": ["sha256:4"], "index": "pypi", "version": "==7.4.3"}
    }
}
"""


def test_pipfile_and_pipfile_lock() -> None:
    assert pins({"Pipfile": PIPFILE, "Pipfile.lock": PIPFILE_LOCK}) == [
        Pin("pypi", "celery", "5.3.6", "Pipfile"),
        Pin("pypi", "django", "4.2.7", "Pipfile"),
        Pin("pypi", "pytest", "7.4.3", "Pipfile"),
        Pin("pypi", "requests", "2.31.0", "Pipfile"),
    ]


PACKAGE_JSON = b"""{
  "name": "@acme/web",
  "version": "1.0.0",
  "private": true,
  "scripts": {"build": "tsc"},
  "dependencies": {
    "react": "^18.2.0",
    "@tanstack/react-query": "~5.8.4",
    "lodash": "4.17.21",
    "shared": "file:../shared",
    "ui": "workspace:*",
    "forked": "git+https://github.com/acme/forked.git",
    "tarball": "https://example.com/t.tgz",
    "shorthand": "acme/shorthand#main"
  },
  "devDependencies": {"typescript": "^5.3.2", "@types/react": "^18.2.0"},
  "peerDependencies": {"react-dom": ">=18"}
}
"""

PACKAGE_LOCK_V3 = b"""{
  "name": "@acme/web",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {"name": "@acme/web", "version": "1.0.0", "dependencies": {"react": "^18.2.0"}},
    "node_modules/@tanstack/react-query": {"version": "5.8.7", "resolved": "https://r/x.tgz"},
    "node_modules/@types/react": {"version": "18.2.39", "dev": true},
    "node_modules/lodash": {"version": "4.17.21"},
    "node_modules/react": {"version": "18.2.0"},
    "node_modules/react-dom": {"version": "18.2.0", "peer": true},
    "node_modules/react-dom/node_modules/scheduler": {"version": "0.23.0"},
    "node_modules/typescript": {"version": "5.3.2", "dev": true}
  }
}
"""

WEB_PINS = [
    Pin("npm", "@tanstack/react-query", "5.8.7", "package.json"),
    Pin("npm", "@types/react", "18.2.39", "package.json"),
    Pin("npm", "lodash", "4.17.21", "package.json"),
    Pin("npm", "react", "18.2.0", "package.json"),
    Pin("npm", "react-dom", "18.2.0", "package.json"),
    Pin("npm", "typescript", "5.3.2", "package.json"),
]


def test_package_json_with_package_lock_v3() -> None:
    assert pins({"package.json": PACKAGE_JSON, "package-lock.json": PACKAGE_LOCK_V3}) == WEB_PINS


def test_package_json_alone_pins_only_exact_versions() -> None:
    assert pins({"package.json": PACKAGE_JSON}) == [
        Pin("npm", "@tanstack/react-query", "", "package.json", "~5.8.4"),
        Pin("npm", "@types/react", "", "package.json", "^18.2.0"),
        Pin("npm", "lodash", "4.17.21", "package.json"),
        Pin("npm", "react", "", "package.json", "^18.2.0"),
        Pin("npm", "react-dom", "", "package.json", ">=18"),
        Pin("npm", "typescript", "", "package.json", "^5.3.2"),
    ]


def test_package_lock_v1() -> None:
    lock = b"""{
      "name": "legacy", "version": "1.0.0", "lockfileVersion": 1, "requires": true,
      "dependencies": {
        "express": {"version": "4.18.2", "resolved": "https://r/e.tgz", "integrity": "sha512-x"},
        "left-pad": {"version": "github:stevemao/left-pad#abc", "from": "github:stevemao/left-pad"}
      }
    }"""
    manifest = b'{"dependencies": {"express": "^4.18.0", "left-pad": "^1.3.0"}}'
    assert pins({"package.json": manifest, "npm-shrinkwrap.json": lock}) == [
        Pin("npm", "express", "4.18.2", "package.json"),
        Pin("npm", "left-pad", "", "package.json", "^1.3.0"),
    ]


YARN_V1 = b"""# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
# yarn lockfile v1


"@babel/code-frame@^7.0.0", "@babel/code-frame@^7.22.13":
  version "7.23.5"
  resolved "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-7.23.5.tgz#9009"
  integrity sha512-abc
  dependencies:
    "@babel/highlight" "^7.23.4"

debug@2.6.9:
  version "2.6.9"
  resolved "https://registry.yarnpkg.com/debug/-/debug-2.6.9.tgz"

debug@^4.3.4:
  version "4.3.4"
  resolved "https://registry.yarnpkg.com/debug/-/debug-4.3.4.tgz"

chalk@^4.0.0, chalk@^4.1.0:
  version "4.1.2"
"""


def test_yarn_v1_picks_the_entry_for_the_declared_range() -> None:
    manifest = (b'{"dependencies": {"debug": "^4.3.4", "@babel/code-frame": "^7.22.13"},'
                b' "devDependencies": {"chalk": "^4"}}')
    assert pins({"package.json": manifest, "yarn.lock": YARN_V1}) == [
        Pin("npm", "@babel/code-frame", "7.23.5", "package.json"),
        Pin("npm", "chalk", "4.1.2", "package.json"),  # no header says ^4: the only entry
        Pin("npm", "debug", "4.3.4", "package.json"),
    ]


def test_yarn_without_a_matching_header_and_several_versions_pins_nothing() -> None:
    manifest = b'{"dependencies": {"debug": "^3"}}'
    assert pins({"package.json": manifest, "yarn.lock": YARN_V1}) == [
        Pin("npm", "debug", "", "package.json", "^3")]


YARN_BERRY = b"""# This file is generated by running "yarn install" inside your project.

__metadata:
  version: 8
  cacheKey: 10c0

"@acme/web@workspace:.":
  version: 0.0.0-use.local
  resolution: "@acme/web@workspace:."
  languageName: unknown
  linkType: soft

"lodash@npm:^4.17.20, lodash@npm:^4.17.21":
  version: 4.17.21
  resolution: "lodash@npm:4.17.21"
  checksum: 10c0/d8cbea072bb08655bb4c989da418994b073a608dffa608b09ac04b43a791b12aeae7cd7ad9
  languageName: node
  linkType: hard

"@types/node@npm:^20.10.0":
  version: 20.10.4
  resolution: "@types/node@npm:20.10.4"
  dependencies:
    undici-types: "npm:~5.26.4"
"""


def test_yarn_berry() -> None:
    manifest = (b'{"dependencies": {"lodash": "^4.17.21"},'
                b' "devDependencies": {"@types/node": "^20.10.0"}}')
    assert pins({"package.json": manifest, "yarn.lock": YARN_BERRY}) == [
        Pin("npm", "@types/node", "20.10.4", "package.json"),
        Pin("npm", "lodash", "4.17.21", "package.json"),
    ]


PNPM_V5 = b"""lockfileVersion: 5.4

specifiers:
  '@types/node': ^18.0.0
  react: ^18.2.0
  styled-components: ^5.3.0

dependencies:
  react: 18.2.0
  styled-components: 5.3.11_7i5myeigehqah43i5u7wbekgba

devDependencies:
  '@types/node': 18.19.3

packages:

  /react/18.2.0:
    resolution: {integrity: sha512-abc}
    dependencies:
      loose-envify: 1.4.0
    dev: false
"""


def test_pnpm_v5() -> None:
    manifest = (b'{"dependencies": {"react": "^18.2.0", "styled-components": "^5.3.0"},'
                b' "devDependencies": {"@types/node": "^18.0.0"}}')
    assert pins({"package.json": manifest, "pnpm-lock.yaml": PNPM_V5}) == [
        Pin("npm", "@types/node", "18.19.3", "package.json"),
        Pin("npm", "react", "18.2.0", "package.json"),
        Pin("npm", "styled-components", "5.3.11", "package.json"),
    ]


PNPM_V9 = b"""lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    devDependencies:
      typescript:
        specifier: ^5.3.0
        version: 5.3.3

  packages/a:
    dependencies:
      '@tanstack/react-query':
        specifier: ^5.8.0
        version: 5.8.7(react@18.2.0)
      b:
        specifier: workspace:*
        version: link:../b
      react:
        specifier: ^18.2.0
        version: 18.2.0

  packages/b:
    dependencies:
      react:
        specifier: ^17.0.0
        version: 17.0.2

packages:

  '@tanstack/react-query@5.8.7':
    resolution: {integrity: sha512-abc}
    peerDependencies:
      react: ^18.0.0

  react@18.2.0:
    resolution: {integrity: sha512-def}

snapshots:

  '@tanstack/react-query@5.8.7(react@18.2.0)':
    dependencies:
      react: 18.2.0
"""


def test_pnpm_v9_workspace_importers_at_the_root() -> None:
    files = {
        "package.json": b'{"private": true, "devDependencies": {"typescript": "^5.3.0"}}',
        "pnpm-lock.yaml": PNPM_V9,
        "packages/a/package.json": (b'{"dependencies": {"@tanstack/react-query": "^5.8.0",'
                                    b' "b": "workspace:*", "react": "^18.2.0"}}'),
        "packages/b/package.json": b'{"dependencies": {"react": "^17.0.0"}}',
    }
    assert pins(files) == [
        Pin("npm", "@tanstack/react-query", "5.8.7", "packages/a/package.json"),
        Pin("npm", "react", "17.0.2", "packages/b/package.json"),
        Pin("npm", "react", "18.2.0", "packages/a/package.json"),
        Pin("npm", "typescript", "5.3.3", "package.json"),
    ]


def test_npm_workspace_lock_at_the_root_pins_a_member() -> None:
    lock = b"""{
      "name": "mono", "lockfileVersion": 3,
      "packages": {
        "": {"name": "mono", "workspaces": ["packages/*"]},
        "node_modules/a": {"resolved": "packages/a", "link": true},
        "node_modules/lodash": {"version": "4.17.21"},
        "node_modules/chalk": {"version": "5.3.0"},
        "packages/a": {"version": "1.0.0"},
        "packages/a/node_modules/chalk": {"version": "4.1.2"}
      }
    }"""
    files = {
        "package.json": b'{"name": "mono", "workspaces": ["packages/*"]}',
        "package-lock.json": lock,
        "packages/a/package.json": b'{"dependencies": {"lodash": "^4.17.0", "chalk": "^4"}}',
    }
    assert pins(files) == [
        Pin("npm", "chalk", "4.1.2", "packages/a/package.json"),  # its own nested copy
        Pin("npm", "lodash", "4.17.21", "packages/a/package.json"),  # hoisted to the root
    ]


def test_a_lock_in_the_own_folder_wins_over_the_root() -> None:
    lock = b'{"lockfileVersion": 3, "packages": {"node_modules/lodash": {"version": "%s"}}}'
    root_lock, own_lock = lock % b"4.0.0", lock % b"4.17.21"
    files = {"package-lock.json": root_lock, "apps/x/package-lock.json": own_lock,
             "apps/x/package.json": b'{"dependencies": {"lodash": "^4"}}'}
    assert pins(files) == [Pin("npm", "lodash", "4.17.21", "apps/x/package.json")]


POM = b"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.acme</groupId>
    <artifactId>acme-parent</artifactId>
    <version>2.3.0</version>
  </parent>
  <artifactId>widgets</artifactId>
  <properties>
    <jackson.version>2.16.0</jackson.version>
    <guava.version>32.1.3-jre</guava.version>
    <slf4j.line>2.0</slf4j.line>
    <slf4j.version>${slf4j.line}.9</slf4j.version>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.junit</groupId>
        <artifactId>junit-bom</artifactId>
        <version>5.10.1</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
      <dependency>
        <groupId>org.slf4j</groupId>
        <artifactId>slf4j-api</artifactId>
        <version>${slf4j.version}</version>
      </dependency>
      <dependency>
        <groupId>org.managed</groupId>
        <artifactId>only-managed</artifactId>
        <version>1.0</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>${jackson.version}</version>
    </dependency>
    <dependency>
      <groupId>com.google.guava</groupId>
      <artifactId>guava</artifactId>
      <version>${guava.version}</version>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
    </dependency>
    <dependency>
      <groupId>${project.groupId}</groupId>
      <artifactId>widgets-core</artifactId>
      <version>${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>commons-io</groupId>
      <artifactId>commons-io</artifactId>
      <version>[2.11,3.0)</version>
    </dependency>
    <dependency>
      <groupId>com.sun</groupId>
      <artifactId>tools</artifactId>
      <version>1.8</version>
      <scope>system</scope>
      <systemPath>${java.home}/../lib/tools.jar</systemPath>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-shade-plugin</artifactId>
        <version>3.5.1</version>
        <dependencies>
          <dependency>
            <groupId>org.ow2.asm</groupId>
            <artifactId>asm</artifactId>
            <version>9.6</version>
          </dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
</project>
"""


def test_pom_properties_management_and_namespace() -> None:
    assert pins({"core/pom.xml": POM}) == [
        Pin("maven", "com.acme:widgets-core", "2.3.0", "core/pom.xml"),  # the parent's version
        Pin("maven", "com.fasterxml.jackson.core:jackson-databind", "2.16.0", "core/pom.xml"),
        Pin("maven", "com.google.guava:guava", "32.1.3-jre", "core/pom.xml"),
        Pin("maven", "commons-io:commons-io", "", "core/pom.xml"),  # a range
        Pin("maven", "org.junit.jupiter:junit-jupiter", "", "core/pom.xml"),  # in a BOM only
        Pin("maven", "org.slf4j:slf4j-api", "2.0.9", "core/pom.xml"),
    ]


def test_pom_with_a_doctype_is_unparsed() -> None:
    bomb = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
            b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n'
            b"<project><dependencies><dependency><groupId>a</groupId><artifactId>&lol2;"
            b"</artifactId><version>1</version></dependency></dependencies></project>")
    files = {"pom.xml": bomb}
    assert pins(files) == []
    assert unparsed(files) == ["pom.xml"]


MALFORMED = {
    "go.mod": b"module m\n\nrequire (\n\texample.com/a v1.0.0\n",  # the block never closes
    "svc/go.mod": b"module m\nrequire example.com/a\n",  # no version
    "pyproject.toml": b"[project\nname = 'x'\n",
    "py2/pyproject.toml": b"[project]\ndependencies = 'requests'\n",
    "package.json": b'{"dependencies": {"react": "^18"',
    "web/package.json": b'["not", "an", "object"]',
    "yarn.lock": b"this is not a lockfile\n",
    "pnpm-lock.yaml": b"dependencies:\n  react: 18.2.0\n",  # no lockfileVersion
    "Pipfile.lock": b"{",
    "pom.xml": b"<project><dependencies></project>",
    "api/pom.xml": b"<settings/>",
    "requirements.txt": b"\xff\xfe r\x00e\x00",
}


def test_malformed_files_are_unparsed_and_do_not_raise() -> None:
    assert pins(MALFORMED) == []
    assert unparsed(MALFORMED) == sorted(MALFORMED)


def test_a_malformed_lock_leaves_the_manifest_declared() -> None:
    files = {"package.json": b'{"dependencies": {"react": "^18.2.0"}}', "yarn.lock": b"garbage"}
    assert pins(files) == [Pin("npm", "react", "", "package.json", "^18.2.0")]
    assert unparsed(files) == ["yarn.lock"]


def test_duplicates_keep_the_first_manifest_in_path_order() -> None:
    files = {"b/requirements.txt": b"attrs==23.1.0\n", "a/requirements.txt": b"attrs==23.1.0\n",
             "c/requirements.txt": b"attrs==23.2.0\n"}
    assert pins(files) == [Pin("pypi", "attrs", "23.1.0", "a/requirements.txt"),
                           Pin("pypi", "attrs", "23.2.0", "c/requirements.txt")]


def test_files_wanted_refuses_are_ignored_by_pins() -> None:
    files = {"node_modules/react/package.json": b'{"dependencies": {"loose-envify": "1.4.0"}}',
             "vendor/github.com/x/y/go.mod": b"module y\nrequire example.com/z v1.0.0\n",
             "README.md": b"# hi"}
    assert pins(files) == []
    assert unparsed(files) == []


@pytest.mark.parametrize("path", [
    "go.mod", "svc/go.mod", "requirements.txt", "requirements-dev.txt", "dev-requirements.txt",
    "requirements/base.txt", "pyproject.toml", "Pipfile", "Pipfile.lock", "poetry.lock",
    "uv.lock", "pdm.lock", "package.json", "packages/a/package.json", "package-lock.json",
    "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "pom.xml", "modules/core/pom.xml",
])
def test_wanted_accepts_manifests_and_lockfiles(path: str) -> None:
    assert wanted(path)


@pytest.mark.parametrize("path", [
    "node_modules/react/package.json", "web/node_modules/@types/node/package.json",
    "vendor/github.com/pkg/errors/go.mod", "third_party/lib/pom.xml", ".git/pyproject.toml",
    "tests/fixtures/package.json", "src/test/resources/pom.xml", "pkg/testdata/go.mod",
    "examples/demo/requirements.txt", "example/package.json", "lib/fixtures/yarn.lock",
    "go.sum", "README.md", "setup.py", "requirements.in", "package.json.bak", "requirements",
])
def test_wanted_refuses_other_files_and_vendored_or_test_folders(path: str) -> None:
    assert not wanted(path)


def test_a_workspace_package_declared_at_an_exact_version_is_the_tree_own() -> None:
    """A monorepo declares its own packages like any dependency (tutanota's `@tutao/licc`):
    they are in the tree, never a registry's."""
    files = {
        "package.json": b'{"name": "mail", "dependencies": {"@acme/licc": "3.102.3",'
                        b' "lodash": "4.17.21"}}',
        "packages/licc/package.json": b'{"name": "@acme/licc", "version": "3.102.3"}',
    }
    assert pins(files) == [Pin("npm", "lodash", "4.17.21", "package.json")]


def test_a_package_json_nested_past_the_recursion_limit_is_unparsed_not_fatal() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    files = {"package.json": deep, "web/package.json": b'{"dependencies": {"a": "1.0.0"}}'}
    assert unparsed(files) == ["package.json"]
    assert [p.name for p in pins(files)] == ["a"]


def test_an_npm_alias_is_the_package_it_names() -> None:
    """`"zod3": "npm:zod@~3.24.0"` installs zod at that range under another folder name: the
    package read is zod, at the alias's range or version (and its lock entry, by the alias)."""
    manifest = (b'{"devDependencies": {"zod3": "npm:zod@~3.24.0", "zod4": "npm:zod@4.0.8",'
                b' "ui": "npm:@acme/ui@^2.1.0"}}')
    assert pins({"package.json": manifest}) == [
        Pin("npm", "@acme/ui", "", "package.json", "^2.1.0"),
        Pin("npm", "zod", "", "package.json", "~3.24.0"),
        Pin("npm", "zod", "4.0.8", "package.json"),
    ]
    lock = b"""{"lockfileVersion": 3, "packages": {
      "node_modules/zod3": {"name": "zod", "version": "3.24.4"}}}"""
    assert Pin("npm", "zod", "3.24.4", "package.json") in pins(
        {"package.json": manifest, "package-lock.json": lock})
