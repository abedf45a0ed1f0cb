"""Errors of the vision package: each says what went wrong in words a referee can act on."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the vision package raises on bad input."""


class ImageReadError(VisionError):
    """A file is missing, empty, not an image, or an image OpenCV cannot decode."""


class CalibrationError(VisionError):
    """Board corners could not be found or make no sensible quadrilateral."""


class ModelError(VisionError):
    """The dice model is missing or cannot be loaded by the chosen backend."""


class SourceError(VisionError):
    """A camera, video file or image folder cannot be opened."""
