"""Turning files on disk into ParsedDocument records."""
