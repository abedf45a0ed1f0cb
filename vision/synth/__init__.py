"""Procedural scenes of a board and dice drawn with OpenCV, with their exact ground truth.

Shared by the two users that need pictures nobody photographed: the training code (``vision/train``) makes its
crops and held-out throws from them, and the app's simulated camera (``app/sim/camera.py``) draws every throw
of a simulated match with them. Run-time code may import this package; it never imports ``vision/train``.
"""
