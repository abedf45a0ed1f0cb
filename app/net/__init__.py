"""Many boards, one tournament: stations publish their journals to an MQTT broker, the director's station reads them.

- :mod:`app.net.topics` the topic layout and the broker's access list; :mod:`app.net.messages` the
  director's three messages to a board; :mod:`app.net.schemas` the declared shape of every message taken.
- :mod:`app.net.tail` the journal read as it is written; :mod:`app.net.snapshot` a board's state folded from it.
- :mod:`app.net.acks` the acknowledged sequence number, kept beside the journal.
- :mod:`app.net.client` the broker connection (paho-mqtt, MQTT 5, TLS, credentials).
- :mod:`app.net.station` the station's publisher; :mod:`app.net.director` the director's table and results;
  :mod:`app.net.web` and :mod:`app.net.page` the director's page, :mod:`app.net.auth` its accounts and
  sessions, :mod:`app.net.actions` the director's own journal of its actions; :mod:`app.net.hall` the broker's
  files for a tournament; :mod:`app.net.cli` the commands.

paho-mqtt, fastjsonschema and cryptography (the ``net`` extra) are imported by the modules that need them
only, so the rest of the app runs without them.
"""
