"""Making the dice model: procedural scenes (render), training crops (dataset), the held-out test set and
videos (heldout), and the PyTorch training and ONNX export (trainer; needs the ``train`` extra)."""
