"""Serial devices: the protocol codec, clock and board drivers, simulators.

See hardware/PROTOCOL.md for the protocol and README.md for how to use it.
Imports nothing of the project but itself; pyserial is its only dependency.
"""
