"""One way to reach the broker for stations and the director alike: MQTT 5 over TCP or TLS, with credentials.

paho-mqtt's own network thread keeps the connection and reconnects by
itself (after 1 s, then every 2 s), so neither side has a reconnection loop of
its own; a station with no broker at all simply never connects and goes on
refereeing.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

SESSION_EXPIRY_S = 3600
"""How long the broker keeps a disconnected director's subscriptions and queued messages."""


@dataclass(frozen=True)
class BrokerConfig:
    """Where the broker is and who we are to it; ``ca`` set means TLS (the broker's certificate checked)."""

    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    ca: str | None = None
    certfile: str | None = None
    keyfile: str | None = None
    keepalive: int = 10

    @classmethod
    def parse_address(cls, text: str) -> tuple[str, int]:
        """``HOST:PORT`` (or ``HOST``, port 1883); ValueError naming the problem."""
        host, _, port = text.rpartition(":") if ":" in text else (text, "", "1883")
        if not host:
            raise ValueError(f"a broker is HOST:PORT, not {text!r}")
        try:
            number = int(port)
        except ValueError:
            raise ValueError(f"a broker's port is a number, not {port!r}") from None
        if not 0 < number < 65536:
            raise ValueError(f"a broker's port is 1 to 65535, not {number}")
        return host, number


def make_client(config: BrokerConfig, client_id: str) -> mqtt.Client:
    """A paho MQTT 5 client for ``config`` (TLS when it names a CA), not yet connected."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if config.username is not None:
        client.username_pw_set(config.username, config.password)
    if config.ca is not None:
        client.tls_set(
            ca_certs=config.ca,
            certfile=config.certfile,
            keyfile=config.keyfile,
            cert_reqs=ssl.CERT_REQUIRED,
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    client.max_queued_messages_set(0)
    client.max_inflight_messages_set(100)
    return client


def connect(client: mqtt.Client, config: BrokerConfig, persistent: bool) -> None:
    """Start connecting in the background (never blocks, never raises for an absent broker)."""
    properties = None
    if persistent:
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
    client.connect_async(
        config.host, config.port, keepalive=config.keepalive, clean_start=not persistent, properties=properties
    )
    client.loop_start()
