"""Connect Four's published results, as the catalog cites them (see ``GAME`` in the package).

:data:`OUTCOMES` is Christophe Steininger's table of every board he and John Tromp solved,
width x height -> (who wins, the ply of the last move under perfect play); :data:`POSITIONS`
is the number of legal positions of each board Tromp counted. :data:`MEASURED` is how each
result is reproduced here and how long that took on this project's 2-core machine.
"""

from __future__ import annotations

STEININGER = ("C. Steininger, c4 solver readme, 'Results' tables (github.com/"
              "ChristopheSteininger/c4, 2025; every board with w + h <= 15 first solved by "
              "J. Tromp, 2006)")
TROMP = ("J. Tromp, John's Connect Four Playground (tromp.github.io/c4/c4.html, 2006-2015), "
         "legal positions by board size")
EDELKAMP = ("S. Edelkamp and P. Kissmann 2008, 'Symbolic classification of general "
            "two-player games' (KI 2008), via OEIS A212693 (J. Tromp 2012)")

# (width, height) -> (who wins: "win" the first player, "lose" the second, "tie" a full
# board; the ply of the last move). Steininger's tables, columns are widths, rows heights.
OUTCOMES: dict[tuple[int, int], tuple[str, int]] = {
    (4, 4): ("tie", 16), (5, 4): ("tie", 20), (6, 4): ("lose", 24), (7, 4): ("tie", 28),
    (8, 4): ("lose", 32), (9, 4): ("lose", 36), (10, 4): ("lose", 40),
    (11, 4): ("lose", 44), (12, 4): ("lose", 48),
    (4, 5): ("tie", 20), (5, 5): ("tie", 25), (6, 5): ("tie", 30), (7, 5): ("tie", 35),
    (8, 5): ("win", 39), (9, 5): ("win", 41), (10, 5): ("win", 47), (11, 5): ("win", 51),
    (4, 6): ("tie", 24), (5, 6): ("tie", 30), (6, 6): ("lose", 36), (7, 6): ("win", 41),
    (8, 6): ("lose", 48), (9, 6): ("lose", 52), (10, 6): ("win", 59),
    (4, 7): ("tie", 28), (5, 7): ("tie", 35), (6, 7): ("win", 41), (7, 7): ("tie", 49),
    (8, 7): ("win", 53), (9, 7): ("win", 55),
    (4, 8): ("tie", 32), (5, 8): ("tie", 40), (6, 8): ("lose", 48), (7, 8): ("win", 55),
    (8, 8): ("lose", 62),
    (4, 9): ("tie", 36), (5, 9): ("tie", 45), (6, 9): ("win", 53), (7, 9): ("tie", 63),
    (8, 9): ("win", 63),
    (4, 10): ("tie", 40), (5, 10): ("tie", 50), (6, 10): ("lose", 60), (7, 10): ("win", 69),
    (4, 11): ("tie", 44), (5, 11): ("tie", 55), (6, 11): ("win", 63),
    (4, 12): ("tie", 48), (5, 12): ("tie", 60), (6, 12): ("lose", 72),
    (4, 13): ("tie", 52), (5, 13): ("tie", 65),
}

# (width, height) -> legal positions (Tromp's table; 7x6: Edelkamp and Kissmann).
POSITIONS: dict[tuple[int, int], int] = {
    (4, 4): 161_029, (5, 4): 3_945_711, (6, 4): 94_910_577, (7, 4): 2_265_792_710,
    (8, 4): 54_233_186_631,
    (4, 5): 1_706_255, (5, 5): 69_763_700, (6, 5): 2_818_972_642, (7, 5): 112_829_665_923,
    (4, 6): 15_835_683, (5, 6): 1_044_334_437, (6, 6): 69_173_028_785,
    (7, 6): 4_531_985_219_092,
    (4, 7): 135_385_909, (5, 7): 14_171_315_454,
    (4, 8): 1_104_642_469,
}
