"""The referee's handlers by concern: throws, plays, cube, chouette, clock, director.

Each module holds one concern's ``on_<event>`` methods on a :class:`app.referee.handling.Handling`; a concern that
hands on to another extends it (a play can end a game: plays extend cube and chouette). The engine puts
them together and dispatches each event type to its handler with ``match`` (:mod:`app.referee.engine`)."""
