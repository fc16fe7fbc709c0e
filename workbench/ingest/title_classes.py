"""The line classes that the title page's rules share: banners (journal names, article kinds,
thesis kinds, volume and status lines), noise (addresses, numbers, contents entries), versions and
editions; the page's furniture that they make up together; and how many words a row holds,
counted across scripts.
"""

from __future__ import annotations

import re

from workbench.ingest.cover_pages import COVER
from workbench.ingest.title_lines import is_banner, is_notice
from workbench.text.dates import is_date_line

_MONTHS = (
    r"jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|"
    r"nov(ember)?|dec(ember)?"
)
BANNER = re.compile(
    r"^((a )?(peer[- ]reviewed( forum)?|preprint|reviews?|research( article| paper)?|original "
    r"(article|research|paper)|article|letter|(short |rapid )?communications?|editorial|perspectives?|"
    r"brief (report|communication)|technical (report|note)|research report|abstract|summary|"
    r"introduction|contents|preface|foreword|chapter \w+|part \w+|open access|full paper|"
    r"regular paper|invited paper|extended abstract|position paper|survey|tutorial|"
    # a paper's kind as a conference prints it: "Late Breaking Demo Paper", "Engineering Brief"
    r"((late[\s-]breaking|demo|demonstration|convention|conference|workshop|short|long|student|poster|"
    r"discussion|white|industry|engineering)[\s-]+){1,3}(paper|brief)|"
    # a thesis's kind alone on its row: "UNDERGRADUATE THESIS", "Doctoral Dissertation"
    r"((under)?graduate|bachelor['’]?s?|master['’]?s?|doctoral|ph\.?\s?d\.?|diploma|senior|honou?rs)\s+"
    r"(thesis|dissertation))\W*$|"
    # an agency's report series, its number after it: "NASA Reference Publication 1311",
    # "NOAA Technical Memorandum NOS CS 47" (the agency and the number in capitals and digits)
    r"((?-i:[A-Z][A-Z.&-]+)\s+){1,2}(technical|reference|contractor|special|conference|research|internal)\s+"
    r"(memorandum|publication|report|paper|note)s?(\s+(?-i:[A-Z0-9][A-Z0-9./-]*))*\W*$|"
    r"©|(journal of|proceedings|\(c\) \d|doi|(issn|isbn)(-1[03])?[\s:]*\d+|in press|available online|"
    r"contents lists|to appear|tech\. rep|department of|school of|faculty of)\b|"
    r"(vol\.|volume)\s*([\dIVXLC]+|one|two|three|four|five|six)\b|"
    # Words that also begin titles ("Draft genome sequence of …", "Volume rendering …", "Copyright
    # and …"), a banner only as the line's one word or before its date, number or phrase.
    rf"(received|accepted|published|submitted|manuscript|draft|copyright|technical report|working paper|"
    rf"volume)(\W*$|\s*[:;,.(\[©–—-]|\s+[a-z]{{0,6}}[-/]?\d+\b|\s+({_MONTHS}|for|to|in|on|by|at|online|version|date|no|number|under|"
    rf"as|after|received|accepted|revised|manuscript|copy|do not|not for|paper|series|notice)\b))",
    re.IGNORECASE,
)
# A standard's or a report's number alone: its body's name, kind and number ("ECMA TR/104",
# "INTERNATIONAL ISO/IEC 30112 WD10 STANDARD", "RFC 8655", "ISO 12647-3:2013", "ITU-T P.58
# (03/2023)"), which a cover sets as large as the title it numbers.
DOCUMENT_NUMBER = re.compile(
    r"^((?i:international)\s+)?(ISO|IEC|ECMA|ANSI|DIN|EN|BS|ITU|IEEE|RFC|NIST|ETSI|JIS|ASTM|IETF|W3C|CEN)"
    r"([/-](ISO|IEC|ANSI|ASTM|[TR]))?(\s+(TR|TS|IS|PAS|Std|SP|[A-Z]\.))?[\s/-]*\d[\w.:/-]*(\s+[A-Z]{1,4}\d*)*"
    r"(\s+(?i:standard))?(\s*\(\d{2}/\d{4}\))?$"
)
NOISE = re.compile(
    r"@|https?://|www\.|arXiv:|\bdoi\b|"
    # a web address without its scheme: "website : expeyes.in"
    r"(?-i:\b[a-z0-9-]{2,}\.(com|org|net|edu|gov|io|info|in|de|fr|uk|jp|cn|ru|it|nl|eu|ch|ca|au)\b(?!\.\w))|"
    r"\bISSN\b|^\W*\d+\W*$|^page \d|\d+\s*\.\.\s*\d+|"
    r"^\W*(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}:\d{2})|"
    r"(\.\s?){4,}|…\s*\d+\s*$|"  # a table of contents' entry: leader dots to its page number
    r"\bvol(ume)?\.?\s*\d+\b.{0,30}?\b(no|nr|issue|iss|number)\.?\s*\d+",  # a journal issue: "Volume 0 (9999), No. 0"
    re.IGNORECASE,
)
# A document's kind alone on its row, as a manual's cover sets it under (or over) its product's
# name: "Reference Manual", "User's Guide", "Documentation and user's manual", an audit's
# "Security Assessment"; in German, French, Spanish, Portuguese, Italian, Dutch and Russian
# ("Benutzerhandbuch", "Manuel de l'utilisateur", "Руководство пользователя"), and in Japanese,
# Chinese and Korean, which write the kind without a space ("リファレンスマニュアル", "用户手册").
_AUDIT_KIND = r"(security|smart contract|code)\s+(assessment|audit|review)|(security\s+)?audit\s+report"
_KIND_WORD = (
    r"((reference|users?['’]?s?|programmers?['’]?s?|developers?['’]?s?|installation|administrators?['’]?s?|"
    r"technical|design|implementation|programming|language|library|quick|getting started)\s+)?"
    r"(manual|guide|handbook|reference|documentation|tutorial|specification|primer|recommendation)|"
    rf"{_AUDIT_KIND}|"
    r"(benutzer|referenz|programmier|installations|entwickler|kurz|bedienungs)?"
    r"(handbuch|anleitung|dokumentation|leitfaden)|spezifikation|"
    r"(manuel|guide)(\s+(de\s+l['’]\s?utilisateur|d['’]\s?utilisation|de\s+référence|du\s+développeur|"
    r"de\s+programmation|d['’]\s?installation))?|tutoriel|mode\s+d['’]\s?emploi|spécifications?|"
    r"(manual|gu[ií]a)(\s+(del?\s+usuario|do\s+usu[aá]rio|do\s+utilizador|de\s+refer[eê]ncia|de\s+instala[cç][aã]o|"
    r"de\s+instalaci[oó]n|de\s+programa[cç][aã]o|de\s+programaci[oó]n))?|"
    r"documentaci[oó]n|documenta[cç][aã]o|especificaci[oó]n|especifica[cç][aã]o|"
    r"(manuale|guida)(\s+(utente|dell['’]\s?utente|di\s+riferimento|di\s+installazione|di\s+programmazione))?|"
    r"documentazione|(gebruikers|referentie)?handleiding|documentatie|"
    r"руководство(\s+(пользователя|программиста|по\s+установке))?|справочник|документация|"
    r"(リファレンス|ユーザーズ|ユーザー|ユーザ|プログラマーズ|利用者|操作|技術|プログラム|開発者)?\s?"
    r"(マニュアル|ガイド|ハンドブック|手引き?|説明書|解説書|仕様書|設計書|チュートリアル)|取扱説明書|"
    r"(用户|使用|参考|编程|开发|安装|技术|程序)?(手册|指南|说明书|教程)|白皮书|"
    r"(사용자|참조|기술|개발자)?\s?(매뉴얼|설명서|안내서|가이드|지침서|사양서)"
)
DOCUMENT_KIND = re.compile(rf"^(the\s+)?({_KIND_WORD})(\s+(and|&)\s+({_KIND_WORD}))?$", re.IGNORECASE)
# An audit's kind, which reads as the subtitle of what was audited ("Uniswap v4 Core: Security Assessment")
AUDIT_KIND = re.compile(rf"^({_AUDIT_KIND})$", re.IGNORECASE)
# A row that names the authors of the title above it: "by David A. Freedman"
BYLINE = re.compile(r"^\s*by\s+\S", re.IGNORECASE)
VERSION = re.compile(r"^(version|release|revision|rev\.|v\.?)\s*\d+(\.\d+)*[a-z]?\b[\s,;:—–-]*", re.IGNORECASE)
# A row that opens with the document's version, with or without its number ("version (unreleased)",
# "v2.1", Texinfo's "for version 3.3.8, 24 May 2018"), or holds a document number's version
# ("DA-05679-001 _v10.1 | July 2019").
VERSION_ROW = re.compile(r"^\s*(for\s+)?(version|release|revision)\b|^\s*v\d|_v\d", re.IGNORECASE)
VERSION_IN = re.compile(r"\b(version|release|revision)\s*\d|\bv\d+\.\d", re.IGNORECASE)
# The document's state on a cover, in several languages, letter-spaced or not ("S E C O N D E D I T I O N").
EDITION = re.compile(
    r"\b(version[e]?|versión|fassung|release|revision|révision)\s*:?\s*[^\s\d]*\d|\bv\d+\.\d|"
    r"\b(edition|édition|edición|edizione|auflage|ausgabe)\b|^(\w )+\w$",
    re.IGNORECASE,
)


def is_furniture(text: str) -> bool:
    """Whether a line is the page's furniture, which no title is: an address or a number (noise),
    a banner, a cover's line, a date, a notice, or a journal's line."""
    if NOISE.search(text) or BANNER.match(text) or COVER.search(text) or is_date_line(text):
        return True
    return is_notice(text) or is_banner(text)


def letter_words(text: str) -> int:
    """Words of two letters or more (an icon font's glyph before a heading is none)."""
    return sum(1 for word in text.split() if sum(c.isalpha() for c in word) >= 2)


def full_line(text: str, words: int = 8) -> bool:
    """A line long enough to be a paragraph's (CJK characters count as half a word each)."""
    return len(text.split()) >= words or cjk_chars(text) >= 2.5 * words


def cjk_chars(text: str) -> int:
    """Chinese, Japanese and Korean characters: each is about a word (they are not spaced)."""
    return sum(1 for c in text if "\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7af")
