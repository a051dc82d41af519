"""What the things the camera reads look like, in one place that the readers and the renderers
both read: a die's pip grid and a racing card's marks. The renderers draw these; the card
reader looks for them; the dice network learned them from rendered dice drawn by this grid."""

#: pip layouts on a face, as (column, row) cells of a 3x3 grid
PIP_CELLS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
#: from a face's centre to a corner cell's, as a share of the face's side (Camel Up's dice)
PIP_OFFSET = 0.27
#: a pip's radius, as a share of the face's side (Camel Up's dice)
PIP_RADIUS = 0.09

#: a racing card's face, width x length in millimetres
CARD_MM = (57.0, 88.0)
#: where the camel marks' centres lie for each value, in millimetres along the card's length
#: from its centre
MARK_SPOTS = {1: (0.0,), 2: (-20.0, 20.0)}
#: a camel mark's size, across x along the card, in millimetres
MARK_MM = (34.0, 24.0)
