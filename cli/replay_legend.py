"""How to read each game's text board in `sheepfold replay` (its output and --help)."""

from __future__ import annotations

LEGENDS: dict[str, str] = {
    "sheep-showdown": (
        "Sheep Showdown: columns a.., rows 1..; each cell is a card and a dog mark.\n"
        "  cards: 1 2 3 5 = sheep worth that many, S shepherd, R rocket sheep,\n"
        "  B blocking sheep, L sliding sheep, X bomb sheep, W wolf, # a sheep covered\n"
        "  by a blocking sheep, . empty (taken or blown up).\n"
        "  dog mark after the card: the dog's number (seat * dogs per player + j),\n"
        "  x = that dog is out, blank = no dog."
    ),
    "sheep-n-sheep": (
        "Sheep 'n' Sheep: a card is colour + number + icon, e.g. B2v.\n"
        "  colours: W white, K black, N brown, P pink, B blue, G grey;\n"
        "  icons: b bell, h heart, s star, v one victory point, d draw, none = no icon.\n"
        "  market i:A+B = the pair of cards in slot i; each pasture is drawn with its\n"
        "  x coordinates below and y coordinates at the left; . = no card there."
    ),
    "sheep-and-garden": (
        "Sheep & Garden: each tile is 5 x 5 characters, its id in the middle and its\n"
        "  12 edge segments around it: l lake, c city, f garden, g grass, r road.\n"
        "  Column (x) numbers on top, row (y) numbers at the left; blank = no tile."
    ),
    "stubborn-sheep": (
        "Stubborn Sheep: fences and areas alternate around the circle.\n"
        "  fence F [owner] card N up/down: its 4 icons in activation order, each a\n"
        "  colour letter and a direction (< left, > right); [-] = nobody's fence.\n"
        "  area A (pen S | meadow, WOLF where the wolf is): its sheep, each a colour\n"
        "  letter and the sheep's id. Colours: b blue, r red, y yellow, w white."
    ),
}

COMMON = (
    "Each move is printed as '== move N  seat S: LABEL'; [forced: timeout],\n"
    "[forced: disqualified] or [forced: too large] (a decision past the server's\n"
    "message size) marks a move the server played for a seat ([forced] from a\n"
    "tournament database, which keeps no reason); events only one seat saw during\n"
    "the match are marked '(seat S only)'."
)


def legend(game: str) -> str:
    return LEGENDS.get(game, f"{game}: no legend for this game's board.")


def help_epilog() -> str:
    return "How to read the boards:\n\n" + "\n\n".join([COMMON, *LEGENDS.values()])
