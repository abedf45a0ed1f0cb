"""The referee's room: events in, rulings and clock commands out, pure and deterministic.

The engine, the events it consumes, the rulings it gives, the match set-up, the director's PIN and the
texts of the rulings. It asks ``rules`` what is legal and imports nothing else (see docs/design.md).
"""
