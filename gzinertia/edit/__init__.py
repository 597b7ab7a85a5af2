"""Minimal-diff edits of users' SDF files and safe delivery of the result."""
