"""Text helpers shared across layers: author names, accents, identifiers and title matching.

At the bottom of the layers (with models and config), so ingest, stores and query can all
use them without importing each other.
"""
