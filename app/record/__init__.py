"""The record's room: the journal (the source of truth), the session that writes first and then applies,
and the exports made from them. It imports the referee and the rules only (see docs/design.md).
"""
