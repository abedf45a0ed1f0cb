"""The referee's handlers by concern: throws, plays, clock, cube, director, questions, result, chouette.

Each module holds one concern's handlers as plain functions of a :class:`app.referee.handling.Step` and an
event; a concern that hands on to another imports it (a play can end a game: plays import cube and chouette).
The engine dispatches each event type to its handler with one ``match`` (:mod:`app.referee.engine`)."""
