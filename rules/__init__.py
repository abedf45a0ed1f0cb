"""The rules of tavla: positions, legal plays, judging, game cycle and IDs.

Standard library only, so the referee can run anywhere and the rules can be
checked in isolation against GNU Backgammon.
"""
