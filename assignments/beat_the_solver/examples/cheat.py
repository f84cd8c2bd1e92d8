"""An example hand-in that the grader refuses: it keeps five 10s whatever the dice show."""


def strategy(roll, rolls_left, phase):
    return ["10"] * 5
