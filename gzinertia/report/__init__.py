"""Output formats: plain data for JSON, rich tables for terminals."""
