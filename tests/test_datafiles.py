"""Data files give keys and values, never definitions: what a test may read from them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from determinacy.proposer.datafiles import Item, format_of, items


def keys(path: str, text: str) -> list[str]:
    return [i.value for i in items(path, text) if i.key]


def values(path: str, text: str) -> list[str]:
    return [i.value for i in items(path, text) if not i.key]


def test_yaml_keys_plain_scalars_lists_and_comments() -> None:
    text = ("name: widget-store  # the shop\nlimits:\n  max_retries: 5\n"
            "  hosts: [a.example, \"b:1\"]\nsteps:\n  - plain scalar value\n"
            "url: \"http://x:1/#frag\"\n# commented_key: hidden\n")
    assert keys("cfg/app.yaml", text) == ["name", "limits", "max_retries", "hosts", "steps",
                                          "url"]
    assert values("cfg/app.yaml", text) == ["widget-store", "5", "a.example", "b:1",
                                            "plain scalar value", "http://x:1/#frag"]
    assert "commented_key" not in keys("cfg/app.yaml", text)


def test_a_requirement_pin_is_a_value_not_a_definition() -> None:
    text = "[options]\ninstall_requires =\n    somelib>=1.4\nname = pkg\n"
    got = items("setup.cfg", text)
    assert Item("somelib>=1.4", 3, key=False) in got
    assert not any(i.key and "somelib" in i.value for i in got)


def test_json_and_toml() -> None:
    assert items("t.json", '{"key": "val", "n": 12, "ok": true}') == [
        Item("key", 1, True), Item("val", 1, False), Item("n", 1, True), Item("12", 1, False),
        Item("ok", 1, True)]
    assert values("p.toml", '[tool.x]\nk = "v"\narr = ["a", "b"]\n') == ["v", "a", "b"]
    assert keys("p.toml", '[tool.x]\nk = "v"\n') == ["tool", "x", "k"]


@pytest.mark.parametrize("path, fmt", [("a/b.yml", "yaml"), ("x.JSON", "json"),
                                       ("setup.cfg", "ini"), ("pyproject.toml", "toml"),
                                       ("main.py", ""), ("Makefile", "")])
def test_format_by_extension(path: str, fmt: str) -> None:
    assert format_of(path) == fmt


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["a.yaml", "a.json", "a.toml", "a.ini"]), st.text(max_size=300))
def test_never_fails(path: str, text: str) -> None:
    for i in items(path, text):
        assert i.value and 1 <= i.line <= text.count("\n") + 1
