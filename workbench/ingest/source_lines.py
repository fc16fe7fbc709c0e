"""Extracted text to SourceLines: clean-up, hyphenation, manuscript line numbers, headers.

Everything here is pure string work on text a parser has already extracted, so PDF, plain text,
Markdown and HTML input all reach the section splitter as the same kind of lines.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from workbench.text.accents import repair_accents
from workbench.text.fts_text import word_units
from workbench.text.ligatures import common_word

LineKind = Literal["text", "break", "heading"]


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One line of extracted text: body text, a paragraph break, or an explicit heading."""

    text: str
    page: int
    kind: LineKind = "text"


RUNNING_SHARE = 0.6  # a running head is on at least this share of the pages (of one side, for a two-word line)
EDGE_LINES = 3  # a one-side running head is among a page's first or last lines
CHAPTER_RUN = 3  # a chapter's running head: at a page edge on this many pages in a row (one side's, or both)
_HYPHEN_END = re.compile(r"(\w+)-$")
_LINE_NUMBER = re.compile(r"^(\d{1,5})\s+(?=\S)")
_BARE_NUMBER = re.compile(r"(\d{1,5})")
_ARXIV_STAMP = re.compile(r"^arXiv:\d{4}\.\d{4,5}(v\d+)?\s+\[[^\]]+\]\s+\d{1,2} \w{3} \d{4}$")
_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u00ad": "",
        "\ufeff": "",
        "\u2010": "-",  # HYPHEN and NON-BREAKING HYPHEN ("Chien‑Yu Hsueh", "infantile‑onset") as the hyphen
        "\u2011": "-",  # names, words and queries are written with
    }
)
_CONTROL = re.compile(r"[\x00\x01\x03-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 and C1 controls (not \x02: above)
# Latin letters and digits set in full-width forms, as CJK typesetting sets them ("Ｖｏｌ．２７",
# "ＣｈｉｎｅｓｅＪｏｕｒｎａｌ"): a run of full-width forms holding one is folded to ASCII; a lone
# full-width comma or colon between Chinese characters is Chinese punctuation and stays.
_FULL_WIDTH_RUN = re.compile(r"[\uff01-\uff5e\u3000]*[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a][\uff01-\uff5e\u3000]*")
_FULL_TO_ASCII = str.maketrans({chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)} | {"\u3000": " "})
# Glyph forms that some producers map to code points of their own instead of the letter: Kangxi and
# supplementary radicals for ordinary ideographs ("⽂" U+2F42 for "文"), CJK compatibility ideographs,
# Arabic presentation forms (each positional shape of a letter), and Roman numerals, which some fonts
# give for "m", "l", "d" and "i" ("Exaⅿpⅼe", "Kashiⅾa"; a numeral "Ⅻ" reads "XII"). Their compatibility
# decomposition is the letter a reader types, so keyword search and evidence find it.
_GLYPH_FORMS = re.compile("[\u2160-\u217f\u2e80-\u2eff\u2f00-\u2fdf\uf900-\ufaff\ufb50-\ufdff\ufe70-\ufeff]+")
_PDFIUM_HYPHEN = re.compile(r"(\w+)\x02\s*(\S*)")
# Hyphenated line ends whose first half is a whole word: keep the hyphen ("self-supervised").
_KEEP_HYPHEN = frozenset(
    {
        "self",
        "non",
        "well",
        "state",
        "cross",
        "high",
        "low",
        "long",
        "short",
        "large",
        "small",
        "fine",
        "open",
        "two",
        "three",
        "four",
        "data",
        "task",
        "time",
        "end",
        "user",
        "rule",
    }
)
_TERMINAL = (".", "?", "!", ":", ".”", '."', ".)")


def clean_text(raw: str) -> str:
    """Normalise extracted text: LF line ends, no NULs or control chars, ligatures expanded, spacing
    accents joined to their letters ("Mu¨ller" is "Müller"), radicals and presentation forms as letters."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").translate(_LIGATURES)
    text = repair_accents(fold_full_width(text))
    text = _GLYPH_FORMS.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    # PDFium marks a line-end hyphen it has already joined with \x02 ("pa\x02pers").
    text = _PDFIUM_HYPHEN.sub(lambda m: _join_hyphenated(m.group(1), m.group(2)), text)
    return _CONTROL.sub("", text.replace("\x02", ""))


def fold_full_width(text: str) -> str:
    """Latin letters and digits set in full-width forms as ASCII, with the punctuation of their run."""
    if not any("\uff01" <= c <= "\uff5e" for c in text):
        return text
    return _FULL_WIDTH_RUN.sub(lambda m: m.group(0).translate(_FULL_TO_ASCII), text)


def _join_hyphenated(left: str, right: str, *, compound: bool = False) -> str:
    """Join a word split by a line-end hyphen, keeping the hyphen for real compounds."""
    if not right:
        return left + "-"
    right_letters = re.sub(r"\W.*$", "", right)
    if _split_capitals(left, right_letters):  # "SYS-" / "TEM" in a title set in capitals
        return left + right
    keep = (
        compound
        or "-" in right
        or not left[-1:].islower()  # "LLM-based", "Smith-Jones"
        or (left.lower() in _KEEP_HYPHEN and len(right_letters) >= 4)
    )
    return f"{left}-{right}" if keep or not right[:1].islower() else left + right


def _split_capitals(left: str, right: str) -> bool:
    """Whether two words in capitals are the halves of one common word that a line end split.

    Their join must be a common word and at least one half no word of its own ("SYS-" / "TEM"
    is SYSTEM, "DIS-" / "TRIBUTED" DISTRIBUTED; "NON-" / "LINEAR" stays a compound, and "LLM-" /
    "BASED" joins to no word)."""
    return (
        len(left) >= 2
        and len(right) >= 2
        and left.isalpha()
        and left.isupper()
        and right.isupper()
        and not (common_word(left) and common_word(right))
        and common_word(left + right)
    )


# Characters of scripts written without spaces between words (Han, kana, CJK punctuation and full-width forms).
_UNSPACED = re.compile("[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# Han and kana letters (not their punctuation).
_CJK_LETTER = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def close_letter_spacing(text: str) -> str:
    """The text with its letter-spaced Chinese or Japanese runs closed up ("适 用 性 很 广" →
    "适用性很广", "摘 要" → "摘要"): a space between two such letters goes when either letter stands
    alone (a space, punctuation or the line's end on its other side), as in a justified or
    letter-spaced line. A space between longer runs ("展开研究 建立了") stays: some text layers put
    one where a "，" they lost was printed."""
    if " " not in text or not _CJK_LETTER.search(text):
        return text

    def letter(i: int) -> bool:
        return 0 <= i < len(text) and _CJK_LETTER.match(text[i]) is not None

    return "".join(
        c
        for i, c in enumerate(text)
        if not (c == " " and letter(i - 1) and letter(i + 1) and (not letter(i - 2) or not letter(i + 2)))
    )


def join_lines(lines: Iterable[str]) -> str:
    """Join the lines of one paragraph: undo line-end hyphenation and collapse whitespace.

    Chinese and Japanese put no space between words, so a line ending in one of their characters
    runs on into a line that begins with one (a space there would split a word, and its search
    bigrams), and letter-spaced runs within a line are closed up (`close_letter_spacing`).
    """
    parts: list[str] = []
    for raw_line in lines:
        line = close_letter_spacing(" ".join(raw_line.split()))
        if parts and line:
            parts[-1], line = dehyphenate(parts[-1], line)
        if not line:
            continue
        if parts and parts[-1] and not (_UNSPACED.match(parts[-1][-1]) and _UNSPACED.match(line[0])):
            parts.append(" ")
        parts.append(line)
    return "".join(parts)


def dehyphenate(previous: str, line: str) -> tuple[str, str]:
    """Move the end of a word hyphenated across a line break back onto the previous line."""
    match = _HYPHEN_END.search(previous[-80:])
    if not match or not previous[-2:-1].isalpha() or not line[:1].isalnum():
        return previous, line
    start = len(previous) - len(previous[-80:]) + match.start()
    head, _, rest = line.partition(" ")
    compound = previous[start - 1 : start] == "-"  # "state-of-the-" + "art"
    return previous[:start] + _join_hyphenated(match.group(1), head, compound=compound), rest


def strip_line_numbers(lines: Sequence[str]) -> list[str]:
    """Remove manuscript line numbers ("12 text") when most lines carry increasing ones."""
    numbers = [
        (i, int(m.group(1)))
        for i, line in enumerate(lines)
        if (m := _LINE_NUMBER.match(line.strip()) or _BARE_NUMBER.fullmatch(line.strip()))
    ]
    content = [line for line in lines if line.strip()]
    if len(numbers) < 10 or len(numbers) < 0.6 * len(content):
        return list(lines)
    rising = sum(1 for (_, a), (_, b) in itertools.pairwise(numbers) if b > a)
    if rising < 0.8 * (len(numbers) - 1):
        return list(lines)
    numbered = {i for i, _ in numbers}
    return [re.sub(r"^\s*\d{1,5}(\s+|$)", "", line, count=1) if i in numbered else line for i, line in enumerate(lines)]


def pdf_lines(page_texts: Sequence[str]) -> list[SourceLine]:
    """Turn per-page PDF text into lines, dropping running headers, line numbers and stamps.

    PDF text has no blank lines, so a paragraph break is inferred after a line that ends a
    sentence and is clearly shorter than the page's typical line.
    """
    pages = [strip_line_numbers([ln.strip() for ln in clean_text(t).split("\n")]) for t in page_texts]
    repeated = running_keys(pages)
    chapters = chapter_heads(pages)
    out: list[SourceLine] = []
    for page_no, page in enumerate(pages, start=1):
        kept = [
            ln for ln in page
            if ln and (key := _running_key(ln)) not in repeated and chapters.get(key, page_no) == page_no
            and not _ARXIV_STAMP.match(ln)
        ]  # fmt: skip
        long_lines = [len(ln) for ln in kept if len(ln) >= 20]
        typical = statistics.quantiles(long_lines, n=4)[2] if len(long_lines) >= 4 else 60.0
        for line in kept:
            out.append(SourceLine(line, page_no))
            if line.endswith(_TERMINAL) and len(line) < 0.8 * typical:
                out.append(SourceLine("", page_no, "break"))
        out.append(SourceLine("", page_no, "break"))
    return out


def running_keys(pages: Sequence[Sequence[str]]) -> set[str]:
    """The keys (`_running_key`) of a document's running heads and footers.

    A line repeated on at least 60% of the pages (numbers aside) is one. Journals and books print
    one head on left-hand pages and another on right-hand ones ("5 期 陈阳 : 轮腿式平衡机器人控制 649"
    and "650 信息与控制 52"; "Bola et al." and "PNAS | Published online"), so each reaches only half
    the pages: a line of two words or more among the first or last EDGE_LINES lines of at least 60%
    of the odd pages, or of the even ones, is one too. (A chapter's head: `chapter_heads`.)
    """
    if len(pages) < 3:
        return set()
    counts = Counter(key for page in pages for key in {_running_key(ln) for ln in page if ln})
    repeated = {key for key, n in counts.items() if n >= max(3, RUNNING_SHARE * len(pages))}
    for side in (pages[0::2], pages[1::2]):
        edges = Counter(key for page in side for key in _edge_keys(page))
        repeated |= {
            key for key, n in edges.items()
            if n >= max(3, RUNNING_SHARE * len(side)) and len(word_units(key.replace("#", " "))) >= 2
        }  # fmt: skip
    return repeated


def chapter_heads(pages: Sequence[Sequence[str]]) -> dict[str, int]:
    """Running heads of a chapter, with the page (1-based) whose line is kept: the first it is on.

    Theses and books head each page with its chapter ("第 3 章 三维重建与坐标变换" on the chapter's
    nine pages of sixty, far from 60%): a line of two words or more among a page's first or last
    EDGE_LINES lines on CHAPTER_RUN pages in a row, or on every other page CHAPTER_RUN times (one
    side's head). Its first page keeps it: there the line is often the chapter's own heading
    ("第 1 章 引 言", "参考文献"), which names the section.
    """
    at: dict[str, set[int]] = {}
    for number, page in enumerate(pages, start=1):
        for key in _edge_keys(page):
            at.setdefault(key, set()).add(number)
    heads: dict[str, int] = {}
    for key, seen in at.items():
        if len(seen) < CHAPTER_RUN or len(word_units(key.replace("#", " "))) < 2:
            continue
        for step in (1, 2):
            if any(all(p + step * k in seen for k in range(CHAPTER_RUN)) for p in seen):
                heads[key] = min(seen)
    return heads


def _edge_keys(page: Sequence[str]) -> set[str]:
    lines = [ln for ln in page if ln]
    return {_running_key(ln) for ln in lines[:EDGE_LINES] + lines[-EDGE_LINES:]}


def _running_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()).lower())


def text_lines(text: str) -> list[SourceLine]:
    """Lines of a plain-text document; blank lines are paragraph breaks, form feeds new pages."""
    out: list[SourceLine] = []
    for page_no, page in enumerate(text.split("\f"), start=1):
        for line in clean_text(page).split("\n"):
            stripped = line.strip()
            out.append(SourceLine(stripped, page_no, "text" if stripped else "break"))
    return out
