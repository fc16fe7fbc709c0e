"""Export: BibTeX entries and Markdown notes built from catalog rows, answers and triage.

Both formats are plain text so the CLI can print them, the TUI can copy them with OSC 52,
and either can write them to a file. Documents are the catalog's records (`CatalogDocument`,
from `Engine.document` / `Engine.document_detail`), so nothing here opens a store.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.formats.markdown import literal
from workbench.library.triage import TriageRecord
from workbench.records import ASPECTS, Answer, CatalogDocument, Citation
from workbench.text.pages import page_label


@dataclass(frozen=True)
class Export:
    """An export ready to print, copy or write: its kind, text, suggested file name and papers."""

    kind: str  # "bibtex" or "markdown"
    text: str
    name: str
    doc_ids: tuple[str, ...]


# Zotero item types (and the folder parser's "document") to BibTeX entry types.
ENTRY_TYPES: dict[str, str] = {
    "journalArticle": "article",
    "magazineArticle": "article",
    "newspaperArticle": "article",
    "conferencePaper": "inproceedings",
    "book": "book",
    "bookSection": "incollection",
    "thesis": "phdthesis",
    "report": "techreport",
    "preprint": "misc",
    "webpage": "misc",
    "document": "misc",
}
# Which BibTeX field the venue goes into, per entry type.
VENUE_FIELDS: dict[str, str] = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "book": "publisher",
    "phdthesis": "school",
    "techreport": "institution",
    "misc": "howpublished",
}
ASPECT_TITLES: dict[str, str] = {
    "research_question": "Research question",
    "methodology": "Methodology",
    "findings": "Findings",
    "conclusions": "Conclusions",
}
_STOP_WORDS_TEXT = "a an the on of in for and to with from by at is are as via towards toward"
_STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
_LATEX_SPECIALS: dict[str, str] = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def bibtex_escape(text: str) -> str:
    """Text safe inside a braced BibTeX value: LaTeX specials escaped, whitespace collapsed."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in " ".join(str(text).split()))


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def last_name(author: str) -> str:
    """The family name of an author written `Last, First` or `First Last`."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""


def generated_citekey(doc: CatalogDocument) -> str:
    """`lastnameYEARfirstword` from the first author, year and first significant title word."""
    name = _ascii_word(last_name(doc.authors[0])) if doc.authors else ""
    year = str(doc.year or "nd")
    words = [_ascii_word(w) for w in doc.title.split()]
    significant = [w for w in words if w and w not in _STOP_WORDS]
    first = significant[0] if significant else (words[0] if words and words[0] else "untitled")
    return f"{name or 'anon'}{year}{first}"


def citekey_for(doc: CatalogDocument) -> str:
    """The document's own citekey (Better BibTeX, Zotero) or a generated one."""
    own = (doc.citekey or "").strip()
    return own if own and re.fullmatch(r"[^\s,{}()=\"#%'\\]+", own) else generated_citekey(doc)


def entry_type(item_type: str | None) -> str:
    """The BibTeX entry type for a catalog item type (`misc` when unknown)."""
    return ENTRY_TYPES.get(item_type or "", "misc")


def bibtex_entry(doc: CatalogDocument, key: str | None = None) -> str:
    """One BibTeX entry for a catalog document."""
    kind = entry_type(doc.item_type)
    fields: list[tuple[str, str]] = [("title", doc.title or "Untitled")]
    authors = [a.strip() for a in doc.authors if a.strip()]
    if authors:
        fields.append(("author", " and ".join(authors)))
    if doc.year:
        fields.append(("year", str(doc.year)))
    if doc.venue:
        fields.append((VENUE_FIELDS[kind], doc.venue))
    if doc.doi:
        fields.append(("doi", doc.doi))
    if doc.tags:
        fields.append(("keywords", ", ".join(doc.tags)))
    body = ",\n".join(f"  {name} = {{{bibtex_escape(value)}}}" for name, value in fields)
    return f"@{kind}{{{key or citekey_for(doc)},\n{body}\n}}\n"


def bibtex(docs: Iterable[CatalogDocument]) -> str:
    """BibTeX for several documents; clashing keys get a, b, c suffixes so every key is unique."""
    seen: dict[str, int] = {}
    entries: list[str] = []
    for doc in docs:
        key = citekey_for(doc)
        count = seen.get(key, 0)
        seen[key] = count + 1
        if count:
            key = f"{key}{chr(ord('a') + (count - 1) % 26)}"
        entries.append(bibtex_entry(doc, key))
    return "\n".join(entries)


def citation_line(citation: Citation) -> str:
    """A numbered source for Markdown: `[1] Title — section, p. 3 (doc id)`."""
    pages = page_label(citation.page, citation.page_start, citation.page_end)
    return f"[{citation.marker}] {literal(citation.title)} — {citation.section}, {pages} (`{citation.doc_id}`)"


def short_reference(doc: CatalogDocument) -> str:
    """`Author et al. (2020). Title.` for copying a citation as text."""
    authors = doc.authors
    who = last_name(authors[0]) if authors else "Anonymous"
    if len(authors) == 2:
        who = f"{who} & {last_name(authors[1])}"
    elif len(authors) > 2:
        who = f"{who} et al."
    year = doc.year or "n.d."
    title = (doc.title or "Untitled").rstrip(".")
    venue = f" {doc.venue}." if doc.venue else ""
    doi = f" https://doi.org/{doc.doi}" if doc.doi else ""
    return f"{who} ({year}). {title}.{venue}{doi}".strip()


def _metadata_lines(doc: CatalogDocument) -> list[str]:
    rows = [
        ("Authors", literal("; ".join(doc.authors))),
        ("Year", str(doc.year or "")),
        ("Venue", literal(doc.venue or "")),
        ("DOI", literal(doc.doi or "")),
        ("Citekey", f"@{citekey_for(doc)}"),
        ("Source", f"{doc.source or '?'} (`{doc.doc_id}`)"),
        ("Tags", literal(", ".join(doc.tags))),
        ("Collections", literal(", ".join(doc.collections))),
    ]
    return [f"- **{label}:** {value}" for label, value in rows if value]


def answer_markdown(answer: Answer, heading_level: int = 2) -> str:
    """An answer or four-aspect summary as Markdown, with its verdict and numbered sources."""
    h = "#" * heading_level
    parts: list[str] = []
    if answer.evidence or answer.synthesis:  # evidence first: the text is already rendered in full
        parts.append(answer.text.strip())
        if answer.status not in ("answered",):
            parts.append(f"*Status: {answer.status}.*")
        if answer.verdict is not None and answer.verdict.decision != "APPROVE":
            reasons = "".join(f"\n- {reason}" for reason in answer.verdict.reasons[:4])
            parts.append(f"**Critic:** {answer.verdict.decision} (score {answer.verdict.score:.2f})\n{reasons}")
        return "\n\n".join(parts)
    if answer.aspects:
        for aspect in ASPECTS:
            if answer.aspects.get(aspect):
                parts.append(f"{h}# {ASPECT_TITLES[aspect]}\n\n{answer.aspects[aspect].strip()}")
    elif answer.text.strip():
        parts.append(answer.text.strip())
    if answer.status != "answered":
        parts.append(f"*Status: {answer.status}.*")
    if answer.verdict is not None:
        verdict = f"**Critic:** {answer.verdict.decision} (score {answer.verdict.score:.2f})"
        reasons = "".join(f"\n- {reason}" for reason in answer.verdict.reasons)
        parts.append(verdict + ("\n" + reasons if reasons else ""))
    if answer.citations:
        parts.append(f"{h}# Sources\n\n" + "\n".join(f"- {citation_line(c)}" for c in answer.citations))
    return "\n\n".join(parts)


def markdown_note(
    doc: CatalogDocument,
    summary: Answer | None = None,
    answer: Answer | None = None,
    triage: TriageRecord | None = None,
) -> str:
    """A Markdown note for one paper: metadata, abstract, summary, answer, triage and note."""
    metadata = _metadata_lines(doc)
    if triage is not None:
        metadata.append(f"- **Triage:** {triage.describe()}")
    parts = [f"# {literal(doc.title or 'Untitled')}", "\n".join(metadata)]
    if doc.abstract:
        parts.append("## Abstract\n\n" + literal(" ".join(doc.abstract.split())))
    if summary is not None:
        parts.append(f"## Summary ({summary.depth})\n\n" + answer_markdown(summary, heading_level=2))
    if answer is not None:
        parts.append(f"## Answer\n\n> **Q:** {answer.query}\n\n" + answer_markdown(answer, heading_level=2))
    if triage is not None and triage.note:
        parts.append("## Note\n\n" + triage.note)
    return "\n\n".join(p for p in parts if p) + "\n"


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe slug: ASCII letters, digits and dashes."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    cleaned = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    return cleaned[:limit].rstrip("-") or "export"


def write_export(text: str, directory: Path, name: str) -> Path:
    """Write `text` to `directory/name`, never overwriting: `name-2.ext`, `name-3.ext`, ..."""
    directory = directory.expanduser()
    directory.mkdir(parents=True, exist_ok=True)
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    path = directory / name
    counter = 2
    while path.exists():
        path = directory / (f"{stem}-{counter}.{suffix}" if suffix else f"{stem}-{counter}")
        counter += 1
    path.write_text(text, encoding="utf-8")
    return path


def export_name(docs: Sequence[CatalogDocument], extension: str) -> str:
    """A file name for an export: the citekey for one paper, `papers-N` for several."""
    if len(docs) == 1:
        return f"{slug(citekey_for(docs[0]))}.{extension}"
    return f"papers-{len(docs)}.{extension}"
