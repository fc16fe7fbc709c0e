"""Chinese, Japanese and Korean names as bylines print them: side by side, in a list with commas,
letter-spaced to a common width ("蓝 昀", "白 玉 冬"), spaced between family and given name as
Japanese bylines are ("松井 俊浩"), or alone above the author's institution. jieba's dictionary
(`rjieba`) says whether a few characters hold a person's name."""

from __future__ import annotations

import re

_CJK_NAME = re.compile(r"[\u3400-\u9fff\uac00-\ud7af]{2,4}")
_CJK_SEPARATORS = re.compile(r"[\s,，、;；·\d*∗†‡§¶]+")
_CJK_LIST_SEPARATORS = re.compile(r"[,，、;；\d*∗†‡§¶]+")
# One name in a list with commas, letter-spaced to the width of three ("蓝 昀" beside "葛畅畅") or
# spaced between family and given name, as Japanese bylines set it ("松井 俊浩, 原 功").
_SPACED_PAIR = re.compile(r"^([\u3400-\u9fff]{1,3})\s+([\u3400-\u9fff]{1,3})$")
# An affiliation in brackets after a name in such a list: "中垣 博文 (九州電力)"
_CJK_BRACKETED = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
HAN_CHAR = re.compile(r"[\u3400-\u9fff]")
# An institution in Chinese, Japanese or Korean: a university, college, institute, laboratory, hospital or firm.
_CJK_INSTITUTION = re.compile(
    r"大学|大學|学院|學院|研究所|研究院|研究中心|实验室|實驗室|科学院|科學院|医院|醫院|公司|대학교|연구소|연구원"
)


def cjk_names(text: str, least: int = 2) -> list[str]:
    """Chinese, Japanese or Korean names side by side ("王洪玺 张兰勇", "宋珣1, 马智博2"): two or more,
    or one alone that jieba knows as a person's name.

    In a list with commas, a name letter-spaced to the width of the others ("蓝 昀") or spaced
    between family and given name ("松井 俊浩, 原 功") is closed up, an affiliation in brackets after
    it left out; two or three lone characters alone on a row ("白 玉 冬") are one name spaced out
    where jieba reads a person's name in them.
    """
    tokens = [t for t in _CJK_SEPARATORS.split(text.strip()) if t]
    if re.search(r"[,，、;；]", text):
        parts = [p.strip() for p in _CJK_LIST_SEPARATORS.split(text.strip()) if p.strip()]
        closed = [_SPACED_PAIR.sub(r"\1\2", _CJK_BRACKETED.sub("", p)) for p in parts]
        lead = next((i for i, p in enumerate(closed) if not _CJK_NAME.fullmatch(p)), len(closed))
        if lead >= 2 and not HAN_CHAR.search(" ".join(closed[lead:])):
            tokens = closed[:lead]  # the names, then their romanised forms: "李大永， 张少睿， LI Dayong， …"
    if 2 <= len(tokens) <= 3 and all(len(t) == 1 and HAN_CHAR.match(t) for t in tokens):
        return ["".join(tokens)] if _holds_person_name("".join(tokens)) else []  # "白 玉 冬": one name spaced out
    tokens = _close_spaced_pairs(tokens)
    if len(tokens) == 2 and sorted(map(len, tokens)) == [1, 2] and all(HAN_CHAR.fullmatch(c) for c in "".join(tokens)):
        return ["".join(tokens)]  # "松井 潔": a family name and a given name, as Japanese bylines space them
    if not tokens or not all(_CJK_NAME.fullmatch(t) for t in tokens):
        return []
    if len(tokens) >= least or (len(tokens) == 1 and _is_person_name(tokens[0])):
        return tokens
    return []


def cjk_name_above_institution(text: str, below: str) -> list[str]:
    """A lone Chinese, Japanese or Korean name on its row that jieba does not know ("白文固"), read
    as a name where the row below names an institution ("青海師範大學歷史系教授")."""
    return cjk_names(text, least=1) if _CJK_INSTITUTION.search(below) else []


def _close_spaced_pairs(tokens: list[str]) -> list[str]:
    """Two-character names letter-spaced to the width of three, among names set side by side
    ("罗兴武 孙 萌 刘 洋" is 罗兴武, 孙萌, 刘洋): lone characters are closed up in pairs that
    jieba knows as a person's name, where the row has a three-character name."""
    if not any(len(t) == 3 and _CJK_NAME.fullmatch(t) for t in tokens):
        return tokens  # no three-character name to be spaced to the width of
    closed: list[str] = []
    index = 0
    while index < len(tokens):
        pair = tokens[index : index + 2]
        if (
            len(pair) == 2
            and all(len(t) == 1 and HAN_CHAR.match(t) for t in pair)
            and _is_person_name("".join(pair))  # not a spaced label ("学 院") or a numbered "第 1 节"
        ):
            closed.append("".join(pair))
            index += 2
        else:
            closed.append(tokens[index])
            index += 1
    return closed


def _holds_person_name(text: str) -> bool:
    """Whether jieba reads a person's name in a few characters ("白玉冬" holds 白玉), where a spaced
    heading ("摘 要", "目 录", "前 言") holds none."""
    return any(tag == "nr" for _, tag in _tags(text))


def _is_person_name(token: str) -> bool:
    """Whether a lone Chinese word is a person's name ("李清", "曾祥东"), by jieba's dictionary and
    its part-of-speech tag for names (`nr`): a word such as "简介" or "综述" is not."""
    return _tags(token) == [(token, "nr")]


def _tags(text: str) -> list[tuple[str, str]]:
    """jieba's words of a text with their part-of-speech tags (imported when first needed)."""
    import rjieba

    return list(rjieba.tag(text))
