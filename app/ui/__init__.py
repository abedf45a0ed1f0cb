"""The Kivy tablet app (the only place Kivy is imported): screens that show the referee and send taps."""
