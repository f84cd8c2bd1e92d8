"""An example hand-in: keep every die of the two numbers seen most often, and every W."""

from collections import Counter


def strategy(roll, rolls_left, phase):
    count = Counter(face for face in roll if face != "W")
    top = [number for number, _ in count.most_common(2)]
    return [face for face in roll if face in top or face == "W"]
