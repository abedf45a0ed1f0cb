"""A TCP relay that can cut a station off the network: bytes stop flowing and new connections are refused.

While cut, the relay keeps the open sockets but forwards nothing (as a pulled
cable or a dead Wi-Fi access point looks to both ends: the broker notices by
the keep-alive and publishes the station's last will); on restore it drops
those dead connections and relays new ones again.
"""

from __future__ import annotations

import select
import socket
import threading


class Relay:
    """127.0.0.1:``port`` relayed to 127.0.0.1:``target``; :meth:`cut`, :meth:`restore`, :meth:`close`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.cut_off = threading.Event()
        self.closed = threading.Event()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        try:
            while not self.closed.is_set():
                ready, _, _ = select.select([a, b], [], [], 0.2)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if not self.cut_off.is_set():
                        peers[sock].sendall(data)
        except OSError:
            return
        finally:
            a.close()
            b.close()

    def cut(self) -> None:
        self.cut_off.set()

    def restore(self) -> None:
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            for sock in (a, b):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self.cut_off.clear()

    def close(self) -> None:
        self.closed.set()
        self.listener.close()
        self.restore()
