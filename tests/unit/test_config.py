"""Config loading: the annotated defaults file, strict validation, discovery order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from workbench.settings.config import ConfigError, Settings, describe_settings, load_settings, settings_from_dict


def test_annotated_defaults_file_matches_built_in_defaults() -> None:
    loaded = load_settings(str(ROOT / "config" / "workbench.toml"))
    assert describe_settings(loaded) == describe_settings(Settings())


def test_every_setting_is_documented_in_the_annotated_file() -> None:
    text = (ROOT / "config" / "workbench.toml").read_text(encoding="utf-8")
    for key, _, doc in describe_settings(Settings()):
        assert doc, key
        assert f"\n{key.split('.')[1]} = " in text, f"{key} missing from config/workbench.toml"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[retrieval]\nmdoe = 'fts'\n", "unknown setting 'retrieval.mdoe'"),
        ("[nosuch]\nx = 1\n", "unknown setting 'nosuch'"),
        ("[retrieval]\nmode = 'fuzzy'\n", "'retrieval.mode': 'fuzzy' is not one of dense, fts, hybrid"),
        ("[retrieval]\nrrf_k = 'sixty'\n", "'retrieval.rrf_k': expected an integer"),
        ("[retrieval]\ndense_weight = 1.5\n", "'retrieval.dense_weight': 1.5 is above the maximum"),
        ("[embedding]\nbatch_size = 0\n", "'embedding.batch_size': 0 is below the minimum"),
        ("[fts]\nstem = 'yes'\n", "'fts.stem': expected true or false"),
        ("[sources]\nfolders = 'papers'\n", "'sources.folders': expected a list"),
        ("retrieval = 3\n", "'retrieval' must be a table"),
        ("[retrieval\n", "not valid TOML"),
    ],
)
def test_bad_config_gives_one_line_naming_the_key(tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(str(path))
    text = str(caught.value)
    assert message in text
    assert "\n" not in text
    assert str(path) in text


def test_both_weights_zero_is_rejected() -> None:
    with pytest.raises(ConfigError, match="both 0"):
        settings_from_dict({"retrieval": {"dense_weight": 0.0, "fts_weight": 0}})


@pytest.mark.parametrize("languages", ["", "eng+", "../eng", "eng deu"])
def test_ocr_languages_must_be_tesseract_names(languages: str) -> None:
    with pytest.raises(ConfigError, match=r"'index\.ocr_languages'"):
        settings_from_dict({"index": {"ocr_languages": languages}})
    assert settings_from_dict({"index": {"ocr_languages": "eng+chi_sim"}}).index.ocr_languages == "eng+chi_sim"


def test_missing_explicit_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_settings(str(tmp_path / "nope.toml"))


def test_discovery_env_then_user_dir(workbench_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert load_settings().source_file == ""  # nothing configured: built-in defaults
    user = workbench_home / "config" / "workbench.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[retrieval]\nlimit = 7\n", encoding="utf-8")
    assert load_settings().retrieval.limit == 7
    env_file = tmp_path / "env.toml"
    env_file.write_text("[retrieval]\nlimit = 3\n", encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_CONFIG", str(env_file))
    assert load_settings().retrieval.limit == 3
    assert load_settings(str(user)).retrieval.limit == 7  # --config beats the environment


def test_integer_accepted_for_float_setting() -> None:
    settings = settings_from_dict({"retrieval": {"dense_weight": 1, "fts_weight": 0}})
    assert settings.retrieval.dense_weight == 1.0
    assert isinstance(settings.retrieval.dense_weight, float)


@pytest.mark.parametrize(
    ("storage", "message"),
    [
        ({"lancedb_uri": "ftp://host/x"}, "'storage.lancedb_uri': 'ftp://host/x' has the scheme 'ftp'"),
        ({"lancedb_uri": "s3:///prefix"}, "names no bucket"),
        ({"endpoint": "http://127.0.0.1:8333", "allow_http": True}, "'storage.endpoint' is set but"),
        ({"lancedb_uri": "gs://b/x", "endpoint": "https://e"}, "not an s3:// URI"),
        ({"lancedb_uri": "s3://b/x", "endpoint": "127.0.0.1:8333"}, "is not an http:// or https:// URL"),
        ({"lancedb_uri": "s3://b/x", "endpoint": "http://127.0.0.1:8333"}, "set 'storage.allow_http = true'"),
        ({"allow_http": True}, "apply only to an object-store"),
        ({"lancedb_uri": "/srv/index", "region": "eu-west-1"}, "apply only to an object-store"),
    ],
)
def test_storage_location_rules(storage: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(".", r"\.")):
        settings_from_dict({"storage": storage})


def test_object_store_settings_become_lancedb_options() -> None:
    s3 = settings_from_dict(
        {"storage": {"lancedb_uri": "s3://lab/wb", "endpoint": "http://10.0.0.5:8333", "allow_http": True}}
    )
    assert s3.chunks_remote() and s3.chunks_uri() == "s3://lab/wb"
    assert s3.chunks_storage_options() == {"endpoint": "http://10.0.0.5:8333", "allow_http": "true"}
    aws = settings_from_dict({"storage": {"lancedb_uri": "s3://lab/wb", "region": "eu-west-1"}})
    assert aws.chunks_storage_options() == {"region": "eu-west-1"}
    local = settings_from_dict({"storage": {"lancedb_uri": "/srv/index"}})
    assert not local.chunks_remote() and local.chunks_storage_options() == {}
    assert not Settings().chunks_remote()
