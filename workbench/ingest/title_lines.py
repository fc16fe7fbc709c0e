"""What a line on a title page is, when it is not the title: the classes of lines a title is not.

Pure string work on one line (or one block of lines) of a title page, by class rather than by
example, so that a new journal, publisher or repository needs no new rule:

- **notices**: rights, permission and distribution text ("Do not quote or cite without
  permission of the authors", "All rights reserved", "This electronic file may not be
  altered", NIH's "HHS Public Access" / "Author manuscript"); a page made mostly of them is a
  cover page (`is_notice_page`);
- **banners**: a journal, series or publisher line ("JSS Journal of Statistical Software",
  "Springer Texts in Statistics", "John Benjamins Publishing Company"), an article-type label
  after a journal's name ("Chemical Science: EDGE ARTICLE"), a conference session ("Session 8
  Formalisms for ..."), a masthead line ("Contents lists available at ScienceDirect");
- **section headings**: numbered ("1. Introduction", "1 Introduction", "2.1 Why is it ...") or
  a standard section's name;
- **prose**: a body sentence (starts in lower case, runs on past a full stop, or is too long).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from workbench.text.junk_authors import DRAFT_STAMP
from workbench.text.ligatures import common_word

_NOTICE = re.compile(
    r"do not (quote|cite|copy|distribute|circulate|reproduce)|without (the )?(prior )?(written )?permission|"
    r"all rights reserved|not for (distribution|circulation|citation)|for (personal|private|internal) use|"
    r"may not be (altered|reproduced|copied|posted|distributed)|this (electronic |pdf )?file\b|"
    r"permission is granted|prior written permission|(is|was) (downloaded|provided) (from|by)|"
    r"terms (and conditions|of use)|creative commons|licensed under|distributed under the terms|"
    r"\bpublic access\b|\bauthor manuscript\b|funders group|published in final edited form|"
    r"accepted manuscript|this is (a|an|the) [\w\s-]{0,40}(version|contribution|copy|preprint|reprint)\b|"
    r"\bpreprint (submitted|not peer)|under review|copyright clearance|\boffprints?\b",
    re.IGNORECASE,
)
_PAGE_NOTICE = re.compile(rf"{_NOTICE.pattern}|\bcopyright\b|©", re.IGNORECASE)  # a copyright line counts on a page
_ARTICLE_TYPE = (
    r"((edge|research|original|review|short|brief|full|regular|invited|feature|special|focus|open access)\s+)?"
    r"(article|paper|communication|review|letter|report|perspective|highlight|minireview|editorial|essay|"
    r"commentary|note)s?"
)
_BANNER = re.compile(
    # an article-type label after a journal's name: "Chemical Science: EDGE ARTICLE"
    rf"^.{{2,60}}?\s*[:|·•–—]\s*{_ARTICLE_TYPE}\W*$|"
    # behind a bar, any kind of article: "IJDC | General Article" (a bar never splits a title)
    rf"^.{{2,60}}?\s\|\s+([^\W\d_]+\s+)?{_ARTICLE_TYPE}\W*$|"
    # a conference programme's session line
    r"^(session|track|panel|workshop)\s+[\dIVX]+[A-Z]?\b|"
    # a journal's, series' or proceedings' name anywhere in a short line, unless a title names it as
    # what it is about ("Articles for Proceedings of Machine Learning Research", "A Guide to …")
    r"(?<!\bfor )(?<!\bto )(?<!\bwith )(?<!\bfrom )\b(journal|transactions|proceedings|annals|bulletin|lecture notes)"
    r"\s+(of|on|in)\b|"
    # a series' name is capitalised ("Lecture Notes in Computer Science"); a title's words need not be
    # ("… with critical notes in parallel columns")
    r"(?-i:\b(Texts|Series|Studies|Monographs|Handbooks|Notes|Library|TEXTS|SERIES|STUDIES|MONOGRAPHS|"
    r"HANDBOOKS|NOTES|LIBRARY)\s+(in|IN)\s+[A-Z][A-Za-z]+(\s+[A-Z][A-Za-z]+)?)$|"
    # a publisher's imprint line; "the press" ends titles ("Freedom of the Press"), never an imprint
    r"(?<!\bthe )\b(publishing|publishers?|press|verlag|editora|ltd|inc|gmbh|company|llc|publications)\W*$|"
    r"^[ée]ditions\b|"
    r"^(springer|elsevier|wiley|sage|routledge|taylor (&|and) francis|oxford university|cambridge university|"
    r"de gruyter|john benjamins|brill|mit press|mdpi|hindawi|frontiers|cell press|plos|biomed central|bmc|"
    r"emerald|karger|thieme|wolters kluwer|lippincott|iop publishing|world scientific|now publishers|"
    r"morgan (&|and) claypool|crc press|academic press|pergamon|north-holland)\b|"
    # a thesis's or report's kind on its cover: "Master's Dissertation", "硕士学位论文"
    r"^((master|bachelor|doctoral|diploma)['’]?s?|ph\.?\s?d\.?|doctor of philosophy)\s+(thesis|dissertation)\W*$|"
    # the kind alone, in the languages theses are written in: "SEMINARARBEIT", "T E S I S", "Thèse"
    r"^((bachelor|master|diplom|magister|seminar|haus|abschluss|doktor|studien|projekt)arbeit|thesis|"
    r"dissertation|tesis( doctoral| de (grado|maestr[íi]a|licenciatura|doctorado))?|"
    r"tese( de (doutorado|mestrado))?|th[èe]se( de doctorat)?|m[ée]moire|proefschrift|scriptie|"
    r"tesi( di (laurea|dottorato))?( magistrale)?|praca (magisterska|doktorska|licencjacka|dyplomowa)|"
    r"diplomov[áa] pr[áa]ce|bakal[áa][řr]sk[áa] pr[áa]ce|disserta[çc][ãa]o( de mestrado)?|"
    r"(term|seminar) paper|research proposal|project report|lab(oratory)? report)\W*$|"
    # the degree programme a thesis is written in: "MESTRADO EM PESQUISA OPERACIONAL E …",
    # "Studijní program Historické vědy", "Master of Science in Physics"
    r"^(mestrado|doutorado|bacharelado|licenciatura|maestr[íi]a|doctorado|(programa de )?p[óo]s-gradua[çc][ãa]o|"
    r"(master|bachelor|doctor) of (science|arts|engineering|philosophy)|studijn[íi] (program|obor)|studiengang)"
    r"\s+(em|en|in|de|of|[^\W\d_]+)\b|"
    # a course of studies: "Curso Superior de Tecnologia em …", "Corso di laurea in …", "Grado en …"
    r"^(curso (superior|t[ée]cnico|de (gradua[çc][ãa]o|bacharelado|licenciatura|tecnologia|especializa[çc][ãa]o|"
    r"p[óo]s-gradua[çc][ãa]o|mestrado|doutorado))( de [^\W\d_]+)*|corso di (laurea|dottorato)( magistrale)?|grado|"
    r"carrera de [^\W\d_]+)\s+(em|en|in)\s|"
    r"^(本科|硕士|博士|学士)?(学位论文|毕业论文|毕业设计(说明书)?|论文)([（(]论文[)）])?$|"
    # a journal's citation line: "Biomedical Signal Processing and Control 8 (2013) 1-10", and
    # with the year first, as Springer printed it: "Current Genetics (1984) 9:47-52"
    r"^[^\W\d_][^()]{2,80}?\s*\((1[89]|20)\d\d\)\s*,?\s*\d{1,4}\s*[:(,]\s*\d|"
    r"^[^\W\d_][^()]{2,80}?\s+\d{1,4}\s*(\(\d{1,3}\)\s*)?[,:]?\s*\(?(1[89]|20)\d\d\)?[\s,:;]+(pp\.\s*)?[\de]\d*|"
    # a draft's stamp, alone on its line: "Work in progress", "TRAVAIL EN COURS"
    rf"^({DRAFT_STAMP})\W*$|"
    # a report series' number: "SLEPc Technical Report STR-10", "AI Memo 239", "Report No. 12/2004"
    r"\b(report|memo|memorandum|note|paper)s?\s+((no|nr)\.?\s*|number\s+|#\s*)?[A-Z]{0,6}[-/]?\d[\d./-]*[a-z]?\W*$|"
    # a masthead: where the journal's name sits
    r"contents lists available|journal homepage|homepage:|sciencedirect|available online at",
    re.IGNORECASE,
)
MASTHEAD = re.compile(r"contents lists available|journal homepage|homepage:|sciencedirect", re.IGNORECASE)
_SECTION_NAMES = (
    r"introduction|background|related work|prior work|motivation|overview|preliminaries|methods?|"
    r"materials and methods|methodology|results?|discussion|conclusions?|summary|abstract|"
    r"acknowledge?ments?|references|bibliography|appendix|experiments?|evaluation|approach|"
    r"problem (statement|formulation|definition)|definitions|notation|implementation|"
    r"case study|future work|limitations|contents|table of contents|index|preface|foreword|"
    r"status of (this|the) memo|copyright notice"  # an RFC's first sections
)
_CN_NUMERALS = "一二三四五六七八九十"
_NUMBERED_HEADING = re.compile(
    rf"^(\d{{1,2}}(\.\d{{1,2}})+\.?\s+\S|(\d{{1,2}}|[IVX]{{1,4}})\.?\s+({_SECTION_NAMES})\b|"
    # a number and one word: "1 Documentation", "3 Examples" (Chinese and Japanese set no spaces,
    # so a run of their characters is a whole heading, not one word)
    r"\d{1,2}\.?\s+(?![^\n]*[\u3040-\u30ff\u3400-\u9fff])[^\W\d_][\w'’-]*$|"
    # Chinese numbering: "第一章 …", "第2节", "一、…", "（一）…", and a word with its number, "目标一", "附录二"
    rf"第\s*[{_CN_NUMERALS}\d]+\s*[章节部篇]|[{_CN_NUMERALS}]+\s*[、．]|[（(]\s*[{_CN_NUMERALS}]+\s*[)）]|"
    rf"[\u4e00-\u9fff]{{2,4}}[{_CN_NUMERALS}]$)",
    re.IGNORECASE,
)
# Where a paper begins: an abstract, its keywords or its introduction at the start of a line.
_PAPER_STARTS = re.compile(
    r"^\W{0,3}(abstract|summary|r[ée]sum[ée]|zusammenfassung|resumen|resumo|riassunto|аннотация|摘\s*要|要旨|"
    r"초록|key\s?words|index terms|(1|i)\.?\s+introduction)\b",
    re.IGNORECASE | re.MULTILINE,
)
_SECTION_HEADING = re.compile(rf"^({_SECTION_NAMES})\W*$", re.IGNORECASE)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_SPACED_CJK = re.compile(rf"(?<=[{_CJK}])[ \t]+(?=[{_CJK}])")  # a space or a wide gap ("类\t型")
_SPACED_CAPITALS = re.compile(r"(?<!\S)([^\W\d_a-z] ){3,}[^\W\d_a-z](?!\S)")
_SENTENCE_BREAK = re.compile(r"[a-z)]{3,}\.\s+[A-Z][a-z]")
_PROSE_WORDS = 30
_DISPLAY_WORDS = 40  # a title set for display may run longer (a trial's name after a colon)
# "goseq:", "dimRed", "word2vec", "iPhone", a file ("glossaries-extra.sty"), a function ("svm()")
_NAME_FIRST = re.compile(r"^\S+:$|^\S*[a-z][A-Z0-9]|^\S+\.[a-z]{1,4}:?$|^\S+\(\)")
_GENE_LIKE = re.compile(r"^[^\W\d_]{1,8}(\d|-+[^\W_])")  # "p53", "c-Src", "mir-1-mediated", "gamma-tocopherol"
_EDGE_PUNCTUATION = "\"'“”‘’([{.,;:!?)]}"
_JOINED_NAME = re.compile(r"^[a-z][a-z0-9]*[-_][a-z0-9][\w-]*$")  # "jobname-suffix", "hep_paper"
# Words a title in capitals keeps in lower case once title-cased (after its first word).
TITLE_CONNECTORS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "on",
        "in",
        "for",
        "and",
        "or",
        "to",
        "with",
        "via",
        "from",
        "by",
        "at",
        "as",
        "towards",
        "toward",
        "using",
        "into",
        "between",
        "under",
        "through",
    ]
)
SHORT_TITLE_WORDS = 4  # a title of fewer words printed in capitals may be an acronym or a code: kept so
_KNOWN_ZIPF = 3.0  # wordfreq's Zipf frequency of a common word (a cut-off word is rarer)


def is_notice(text: str) -> bool:
    """Rights, permission or manuscript-status text ("Do not quote without permission")."""
    return bool(_NOTICE.search(text))


def paper_start(text: str) -> int | None:
    """Where the paper itself begins on a page: the offset of the line that opens its abstract,
    keywords or introduction, or None."""
    match = _PAPER_STARTS.search(text)
    return match.start() if match else None


def is_notice_page(text: str) -> bool:
    """A short page made of notices: a publisher's offprint or copyright page before the paper.

    A page where the paper itself begins (an abstract or introduction heading starts a line)
    is the title page, whatever its footnotes say ("Copyright © 2006 …; permission is granted
    to distribute …").
    """
    words = len(text.split())
    hits = {m.group(0).lower() for m in _PAGE_NOTICE.finditer(" ".join(text.split()))}
    return words <= 300 and len(hits) >= 3 and not _PAPER_STARTS.search(text)


def is_banner(text: str) -> bool:
    """A journal, series, publisher, article-type, thesis-kind, session or masthead line (short lines only)."""
    text = unspaced(" ".join(text.split()))
    if len(text.split()) > 10:
        return False
    parts = text.split(" / ")  # in two languages: "DISSERTATION / DOCTORAL THESIS"
    return bool(_BANNER.search(text)) or (len(parts) > 1 and all(_BANNER.search(part) for part in parts))


def unspaced(text: str) -> str:
    """Letters set with a space between them closed up: CJK ("硕 士 学 位 论 文") and a
    letter-spaced word in capitals ("T E S I S")."""
    return _SPACED_CAPITALS.sub(lambda m: m.group(0).replace(" ", ""), _SPACED_CJK.sub("", text))


def is_section_heading(text: str) -> bool:
    """ "1. Introduction", "1 Introduction", "2.1 Why is it important ...", "References"."""
    text = " ".join(text.split())
    return bool(_NUMBERED_HEADING.match(text) or _SECTION_HEADING.match(text))


def reads_as_prose(text: str, display: bool = False) -> bool:
    """A body sentence: begins in lower case, runs on past a full stop, or is paragraph-long.

    A lower-case first word that is a name (a software package, gene or brand: "goseq: Gene
    Ontology testing …", "dimRed and coRanking …", "word2vec …", "lpsymphony - Integer Linear
    Programming in R", "p53 mutation …", "c-Src and …", "β-catenin …") does not make a sentence:
    it ends in a colon or stands before a dash, holds a digit or a hyphen, a capital or a digit
    follows its lower-case letters, or it is not a Latin letter.

    `display`: the text is set larger than the body, as titles are. Its lower-case first word is
    then a name unless it is a common English word (a program's: "nauty and Traces User's Guide
    (Version 2.6)"); a sentence begins with one. A title may then run to 40
    words and hold one full stop, as journals that title in two sentences print them ("p53
    mutation in breast cancer. Correlation with cell kinetics").
    """
    text = " ".join(text.split())
    words = text.split()
    if len(words) > (_DISPLAY_WORDS if display else _PROSE_WORDS):
        return True
    named = (
        _NAME_FIRST.match(words[0])
        or _GENE_LIKE.match(words[0])
        or (len(words) > 1 and words[1] in ("-", "--", "–", "—"))
        or (len(words) > 1 and _JOINED_NAME.match(words[0]) and words[1][:1].isupper())  # "jobname-suffix Compile …"
        or (display and not common_word(words[0].strip(_EDGE_PUNCTUATION)))  # "nauty and Traces User's Guide"
    )
    if _latin_lower(text[:1]) and len(words) > 6 and not named:
        return True
    cjk = sum(1 for c in text if "\u3040" <= c <= "\u9fff")
    if "。" in text.rstrip("。") or (cjk > 20 and "，" in text) or (len(text) > 80 and " " not in text):
        return True  # a Chinese or Japanese sentence
    return len(_SENTENCE_BREAK.findall(text)) > (1 if display else 0)


def _latin_lower(ch: str) -> bool:
    return ch.islower() and unicodedata.name(ch, "").startswith("LATIN SMALL")


def strip_numbering(title: str) -> str:
    """A chapter number, a form's field label or a report series' number before a title and a
    page number after it ("120. The family ... 1079", "论文题目 基于...", "Title: ...",
    "【提出書類】 …", "NOTE 259: …")."""
    # a form's label with its colon (or, in Chinese, alone before the value): "Title of the Paper" is a title
    label = r"^((title|titel|t[íi]tulo|titre)\s*[:：]\s*|(论文题目|题\s*目)\s*(：\s*|:?\s+))(?=\S)"
    title = re.sub(label, "", title, flags=re.IGNORECASE)
    # a Japanese form's field label in lenticular brackets: "【提出書類】 有価証券報告書"
    title = re.sub(r"^【[^】]{1,12}】\s*(?=\S)", "", title)
    # a report series' number before the colon: "NOTE 259: pyrap binding to casacore", "AI Memo 239: …"
    series = (
        r"^([A-Z]{2,6}\s+)?(technical\s+)?(report|memo|memorandum|note|paper)\s+(no\.?\s*)?"
        r"[A-Z]{0,6}[-/]?\d[\d./-]*\s*:\s+(?=\S)"
    )
    title = re.sub(series, "", title, flags=re.IGNORECASE)
    title = re.sub(r"^\d{1,3}\.\s*(?=[^\W\d_])", "", title)
    return re.sub(r"(?<=[^\W\d_])\s+(?!(1[89]|20)\d\d\b)\d{3,5}$", "", title)


def script_shares(text: str) -> dict[str, float]:
    """The share of a text's letters in each script: "latin", "cjk" (Han, kana, hangul), "cyrillic", ..."""
    counts: Counter[str] = Counter()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "").split(" ", 1)[0].lower()
            counts["cjk" if name in ("cjk", "hiragana", "katakana", "hangul") else name] += 1
    total = sum(counts.values())
    return {script: n / total for script, n in counts.items()}


def dominant_script(text: str) -> str:
    """The script most letters of a text are in ("" when it has no letters)."""
    shares = script_shares(text)
    return max(shares, key=lambda s: shares[s]) if shares else ""


def complete_cut_word(title: str, page_lines: list[str]) -> str:
    """A title whose last word the text layer cut short ("THEORY OF LANGU": an OCR layer that
    lost the last glyphs of a faint line) ends with the one longer word, printed elsewhere on
    the page in the same case, that the cut word begins: a common word (wordfreq), where the
    cut word is not one."""
    from wordfreq import zipf_frequency

    match = re.search(r"([^\W\d_]{3,})$", title)
    if not match or zipf_frequency(match.group(1), "en") >= _KNOWN_ZIPF:
        return title
    cut = match.group(1)
    longer = {
        word
        for line in page_lines
        for word in re.findall(rf"\b{re.escape(cut)}[^\W\d_]{{2,}}", line)
        if zipf_frequency(word, "en") >= _KNOWN_ZIPF
    }
    return title[: match.start()] + longer.pop() if len(longer) == 1 else title


def title_case(text: str) -> str:
    """ "ON THE MEANINGS OF THE LOGICAL LAWS" → "On the Meanings of the Logical Laws"; a subtitle
    opens with a capital too ("Fact, Fetch, and Reason: A Unified …")."""
    out: list[str] = []
    opens = True
    for word in text.lower().split():
        out.append(word if not opens and word in TITLE_CONNECTORS else word[:1].upper() + word[1:])
        opens = opens_next(word)
    return " ".join(out)


def opens_next(word: str) -> bool:
    """Whether the word after this one of a title opens a part of it: after a colon, a question,
    a dash, or a sentence's full stop (not an abbreviation's: "U.S.", "Dr.")."""
    if word.endswith((":", "?", "!", "—", "–")) or word == "-":
        return True
    bare = word.strip("\"'“”‘’()[]").rstrip(".")
    return word.endswith(".") and len(bare) >= 3 and bare.isalpha()
