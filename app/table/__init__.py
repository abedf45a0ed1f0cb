"""The real table's room: the device adapters, the live camera, the one place a settled throw becomes a
referee event, and the wiring of a live station. It reaches down to the record, the referee, vision and
device, never up to the simulation or the screens (see docs/design.md).
"""
