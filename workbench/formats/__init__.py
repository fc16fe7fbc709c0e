"""Formats: BibTeX and Markdown exports, and answers as Markdown text (pure text, no stores)."""
