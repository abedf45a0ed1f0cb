"""Making the dice model: training crops (dataset) from the procedural scenes of ``vision.synth``, the
held-out test set and videos (heldout), and the PyTorch training and ONNX export (trainer; needs the
``train`` extra). Run-time code never imports this package."""
