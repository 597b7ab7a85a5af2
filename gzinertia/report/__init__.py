"""Output formats: plain data for JSON, rich tables for terminals."""

__all__: list[str] = []
