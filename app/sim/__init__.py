"""The simulated world's room: two simulated players, the simulated table and camera, the headless demo.

It drives the real chain (the table's adapters, the record, the referee) with simulated devices and
pictures, so everything it exercises is what runs at a real table (see docs/design.md).
"""
