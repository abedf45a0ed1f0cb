"""Making the dice reader's models: ``python -m vision.train`` runs the trainers of the detector
(detector_trainer, on detector_data's patches), its second stage (crop_head) and its cocked look (cocked_look),
both on crop_data's crops; heldout and blender_set make the held-out test sets. Needs the ``train`` extra;
run-time code never imports this package."""
