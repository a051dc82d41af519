"""Frames in, readings out: camera sources, calibration, the dice reader, settling, a renderer.

Vision knows nothing of the games' rules: it reports "a blue die showing 2", never "blue
moves". Its own data are the dice each game brings (vision.dicesets).
"""
