#!/usr/bin/env python3
"""A Tractor player for bin/bridge (docs/bridge.md), standard library only.

Random legal plays: it plays one of the turn's legal plays at random (the list may stop at a bound: `complete`
false; any listed play is still legal). As the dealer it buries 8 cards of its own choice: its lowest non-trump
cards by rank (any 8 of its cards may be buried). It reads one JSON object a line and answers each turn.
"""
import json
import random
import sys

RANKS = "23456789TJQKA"


def own_hand(view, seat):
    for held in view["seats"]:
        if held["seat"] == seat:
            return held["hand"]
    raise ValueError("the view holds no hand for seat %s" % seat)


def burial(view, seat):
    hand = own_hand(view, seat)
    def weight(card):
        if card in ("BJ", "RJ"):
            return 100
        return RANKS.index(card[1]) + (50 if card[0] == view["mainSuit"] else 0)
    return sorted(hand, key=weight)[:8]


def choose(turn, seat, dice):
    if turn["legal"]:
        return dice.choice(turn["legal"])
    return {"type": "bury", "cards": burial(turn["view"], seat)}


def main():
    dice = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            seat = message["seat"]
        elif kind == "turn":
            print(json.dumps({"turn": message["turn"], "action": choose(message, seat, dice)}), flush=True)
        elif kind == "error":
            print("refused: %s %s" % (message["code"], message["message"]), file=sys.stderr)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
