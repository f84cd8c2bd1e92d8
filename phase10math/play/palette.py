"""Die colors that stay apart for color-blind players, checked by simulation.

Every face also carries its color's letter (R, O, B, G), so color is never the only cue; the
palette is chosen so that the four colors also differ in lightness, which survives red-green
color blindness. :func:`min_distance` measures the smallest CIEDE2000 difference between two
die colors as seen with normal vision and simulated deuteranopia, protanopia and tritanopia
(Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear RGB).

>>> round(min_distance(PALETTE), 1) > 20
True
>>> LETTERS["o"], text_color("o")
('O', '#111111')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from phase10math._base.checks import public

#: Background of a die face per color code (None: color not known / not rolled yet).
PALETTE: dict[str | None, str] = {
    "r": "#8c2a1f",  # dark red
    "o": "#d9822b",  # orange (mid lightness)
    "b": "#234a95",  # dark blue
    "g": "#a6e6b8",  # light green
    None: "#5c5c5c",
}
#: The letter printed on every face of that color.
LETTERS: dict[str | None, str] = {"r": "R", "o": "O", "b": "B", "g": "G", None: ""}

#: Okabe & Ito (2008) colors for plot lines and bars: told apart with every common color vision
#: deficiency (orange, sky blue, bluish green, yellow, blue, vermilion, reddish purple, black).
OKABE_ITO: tuple[str, ...] = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
)


@public
def use_okabe_ito() -> None:
    """Make matplotlib draw lines and bars in the :data:`OKABE_ITO` colors: the eight colors
    with solid lines, then again dashed (so up to 16 series stay apart).

    >>> use_okabe_ito()
    >>> import matplotlib.pyplot as plt
    >>> plt.rcParams["axes.prop_cycle"].by_key()["color"][:2]
    ['#E69F00', '#56B4E9']
    """
    import matplotlib.pyplot as plt

    colors = list(OKABE_ITO) * 2
    styles = ["-"] * len(OKABE_ITO) + ["--"] * len(OKABE_ITO)
    plt.rcParams["axes.prop_cycle"] = plt.cycler(color=colors) + plt.cycler(linestyle=styles)


#: Machado et al. (2009) simulation matrices, severity 1.0, linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def text_color(code: str | None) -> str:
    """Black or white text, whichever contrasts more with the face color."""
    lum = _luminance(_linear(_rgb(PALETTE[code])))
    return "#111111" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"


def _rgb(hex_color: str) -> tuple[float, float, float]:
    h = hex_color.lstrip("#")
    return tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _linear(rgb):
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)


def _luminance(lin) -> float:
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def simulate(hex_color: str, kind: str) -> tuple[float, float, float]:
    """Linear RGB of a color as seen with a color vision deficiency (clipped to 0..1)."""
    lin = _linear(_rgb(hex_color))
    m = CVD_MATRICES[kind]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))


def lab(lin) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear RGB color."""
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 color difference (Sharma, Wu & Dalal 2005)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - math.sqrt(Cm**7 / (Cm**7 + 25**7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if C1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if C2p else 0.0
    dLp, dCp = L2 - L1, C2p - C1p
    if C1p * C2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dHp = 2 * math.sqrt(C1p * C2p) * math.sin(math.radians(dhp / 2))
    Lm, Cmp = (L1 + L2) / 2, (C1p + C2p) / 2
    if C1p * C2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hm = (h1p + h2p + 360) / 2
    else:
        hm = (h1p + h2p - 360) / 2
    T = (
        1
        - 0.17 * math.cos(math.radians(hm - 30))
        + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6))
        - 0.20 * math.cos(math.radians(4 * hm - 63))
    )
    dtheta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    Rc = 2 * math.sqrt(Cmp**7 / (Cmp**7 + 25**7))
    Sl = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    Sc, Sh = 1 + 0.045 * Cmp, 1 + 0.015 * Cmp * T
    Rt = -math.sin(math.radians(2 * dtheta)) * Rc
    return math.sqrt(
        (dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh)
    )


def distances(palette: Mapping[str | None, str] = PALETTE) -> dict[str, float]:
    """Per vision kind, the smallest CIEDE2000 difference between two die colors."""
    codes = [c for c in palette if c is not None]
    out = {}
    for kind in CVD_MATRICES:
        labs = {c: lab(simulate(palette[c], kind)) for c in codes}
        out[kind] = min(ciede2000(labs[a], labs[b]) for a, b in itertools.combinations(codes, 2))
    return out


def min_distance(palette: Mapping[str | None, str] = PALETTE) -> float:
    """The smallest difference between two die colors over every simulated vision kind."""
    return min(distances(palette).values())
