"""Where documents come from: watched folders and a read-only Zotero library."""
