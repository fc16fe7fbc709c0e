"""Bad input from the fault battery (issue 12), checked without the stores: names, text, config, arguments.

Each test reproduces one defect the battery found; the store-level ones are in
tests/integration/test_reliability.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

import pytest

from workbench.cli.main import main
from workbench.ingest.parse import parse_file
from workbench.ingest.parse_error import ParseError
from workbench.ingest.regular_file import hash_regular
from workbench.records import Chunk, folder_doc_id
from workbench.settings.config import ConfigError, Settings, load_settings, settings_from_dict
from workbench.stores.catalog import Catalog
from workbench.text.safe import printable, quoted, valid_text

BAD_NAME = os.fsdecode(b"bad\xffname.md")  # what os.listdir gives for a name that is not UTF-8


# --- 1. names that are not valid UTF-8 -----------------------------------------------------------


def test_undecodable_file_name_gives_a_stable_valid_id() -> None:
    doc_id = folder_doc_id(1, BAD_NAME)
    assert doc_id == "file:1/bad\\xffname.md"
    doc_id.encode("utf-8")  # storable: no lone surrogate left
    # the chunk id hashes bytes, so neither an undecodable name nor a broken PDF's surrogate can raise
    assert Chunk.make_id(BAD_NAME, "other", 0, "text \udcff") == Chunk.make_id(BAD_NAME, "other", 0, "text \udcff")
    assert valid_text("plain ü name") == "plain ü name"


def test_surrogates_in_a_query_give_one_line_not_a_traceback(
    workbench_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", os.fsdecode(b"\xff")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("workbench: no document matches '\\xff'") and err.count("\n") == 1


# --- 2. ids across roots -------------------------------------------------------------------------


def test_each_root_keeps_its_own_number(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.duckdb")
    catalog.migrate()
    assert catalog.root_numbers(["/r1", "/r2"]) == {"/r1": 1, "/r2": 2}
    assert catalog.root_numbers(["/r3", "/r1"]) == {"/r3": 3, "/r1": 1}  # stable, and new roots go last
    assert folder_doc_id(1, "notes.md") != folder_doc_id(2, "notes.md")


# --- 4. never a blocking open ---------------------------------------------------------------------


def _finishes(target: object, *args: object) -> tuple[bool, BaseException | None]:
    """Run target(*args) in a daemon thread; (finished within 20 s, its exception)."""
    error: list[BaseException] = []

    def run() -> None:
        try:
            target(*args)  # type: ignore[operator]
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    return not thread.is_alive(), (error[0] if error else None)


def test_a_fifo_is_neither_hashed_nor_parsed_and_nothing_blocks(tmp_path: Path) -> None:
    fifo = tmp_path / "paper.md"
    os.mkfifo(fifo)
    try:
        done, error = _finishes(hash_regular, str(fifo))
        assert done, "hashing a FIFO blocked"
        assert isinstance(error, OSError) and "FIFO" in str(error)
        done, error = _finishes(parse_file, fifo)
        assert done, "parsing a FIFO blocked"
        assert isinstance(error, ParseError) and "FIFO" in error.reason
    finally:
        with contextlib.suppress(OSError):  # unblock a thread stuck in open(), should the check regress
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_directory_named_like_a_paper_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "looks-like.pdf"
    folder.mkdir()
    with pytest.raises(ParseError, match="directory"):
        parse_file(folder)


# --- 6. HTML5 without </head> -----------------------------------------------------------------------


def test_html5_without_closing_head_keeps_its_body(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Fin regeneration</title>"
        "<body><h1>Fin regeneration</h1><p>Blastema cells proliferate after amputation.</p>",
        encoding="utf-8",
    )
    parsed = parse_file(page)
    assert parsed.has_text
    assert "Blastema cells proliferate" in " ".join(s.text for s in parsed.sections)
    assert parsed.title == "Fin regeneration"


def test_html_head_content_is_still_not_body_text(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>T</title><style>p{color:red}</style><script>var x=1</script></head>"
        "<body><p>Visible words only.</p></body></html>",
        encoding="utf-8",
    )
    text = " ".join(s.text for s in parse_file(page).sections)
    assert "Visible words only." in text and "color" not in text and "var x" not in text


# --- 7. config: NaN, infinities, cross-field rules; JSON never holds NaN ------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_non_finite_weights_are_rejected(value: str, tmp_path: Path) -> None:
    config = tmp_path / "w.toml"
    config.write_text(f"[retrieval]\nfts_weight = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"'retrieval.fts_weight': expected a finite number"):
        load_settings(str(config))


def test_chunk_tokens_above_the_cap_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"'index.chunk_tokens' \(300\) is above 'index.max_chunk_tokens' \(256\)"):
        settings_from_dict({"index": {"chunk_tokens": 300}})
    with pytest.raises(ConfigError, match=r"'index\.min_chunk_tokens'"):
        settings_from_dict({"index": {"min_chunk_tokens": 220}})
    assert settings_from_dict({"index": {"chunk_tokens": 256, "max_chunk_tokens": 256}}).index.chunk_tokens == 256
    assert Settings() == settings_from_dict({})  # the defaults obey every rule


def test_bad_config_is_one_line_and_exit_2(
    workbench_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "w.toml"
    config.write_text("[retrieval]\nfts_weight = nan\n", encoding="utf-8")
    assert main(["--config", str(config), "search", "graphene", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "finite" in captured.err


def test_json_output_never_holds_bare_nan(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli.main import _print_json

    _print_json({"score": float("nan"), "nested": [float("inf"), 1.5]})
    out = capsys.readouterr().out

    def reject(token: str) -> float:
        raise AssertionError(f"bare {token} in JSON")

    assert json.loads(out, parse_constant=reject) == {"score": None, "nested": [None, 1.5]}


# --- 8 and 9. CLI arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "x", "--limit", "-1"], "argument --limit: must be at least 1, got -1"),
        (["search", "x", "--limit", "0"], "argument --limit: must be at least 1, got 0"),
        (["related", "x", "--limit", "0"], "argument --limit: must be at least 1, got 0"),
        (["ask", ""], "argument query: must not be empty"),
        (["ask", "   "], "argument query: must not be empty"),
        (["show", ""], "argument ref: must not be empty"),
    ],
)
def test_bad_arguments_are_bad_usage(
    argv: list[str], message: str, workbench_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert time.monotonic() - started < 30  # refused before any model or store loads (203 s before)


def test_a_huge_reference_is_shortened_in_the_error_line(
    workbench_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", "x" * 200_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400 and "more characters" in err


def test_printable_escapes_what_could_fake_or_clear_lines() -> None:
    name = "paper\n  failed: fake.pdf: forged\x1b[2J\x1b[H\u202eevil\udcff.md"
    shown = printable(name)
    assert "\n" not in shown and "\x1b" not in shown and "\u202e" not in shown
    assert shown == "paper\\n  failed: fake.pdf: forged\\x1b[2J\\x1b[H\\u202eevil\\xff.md"
    assert printable("Schrödinger 方程 tab-free") == "Schrödinger 方程 tab-free"
    assert quoted("y" * 1000, 10) == "'yyyyyyyyyy… (990 more characters)'"


# --- 9. text decoding ----------------------------------------------------------------------------------


def test_latin1_text_is_detected_not_mangled(tmp_path: Path) -> None:
    text = (
        "Résumé des expériences\n\n"
        "Les défauts cristallins modifient la conductivité thermique à température élevée. "
        "Nous décrivons la méthode d'élaboration des échantillons et les mesures effectuées "
        "à l'aide d'un spectromètre à haute résolution; la précision était de l'ordre du degré.\n"
    )
    note = tmp_path / "notes.txt"
    note.write_bytes(text.encode("latin-1"))
    parsed = parse_file(note)
    body = " ".join(s.text for s in parsed.sections)
    assert "\ufffd" not in body
    assert "conductivité" in body and "élevée" in body
    assert parsed.warnings and parsed.warnings[0].startswith("not UTF-8: decoded as ")


def test_utf8_text_has_no_warning(tmp_path: Path) -> None:
    note = tmp_path / "notes.md"
    note.write_text("# Über\n\nNaïve café.\n", encoding="utf-8")
    assert parse_file(note).warnings == ()
