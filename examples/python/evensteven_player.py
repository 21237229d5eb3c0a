#!/usr/bin/env python3
"""An Even-Steven player for bin/bridge (docs/bridge.md), standard library only.

Greedy: a card covers the dealt card when its value is equal or higher (suits do not count); it covers with the
lowest such card, else throws its lowest card. Cards are a value (2..10, J, Q, K, A) and a suit (c, d, h, s).
It reads one JSON object a line and answers each turn with one line.
"""
import json
import sys

VALUES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def value(card):
    return VALUES.index(card[:-1])


def choose(turn):
    dealt = turn["view"]["toCover"]
    plays = [action for action in turn["legal"] if action["type"] == "play"]
    covering = [p for p in plays if value(p["card"]) >= value(dealt)]
    return min(covering or plays, key=lambda p: value(p["card"]))


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "turn":
            answer = {"turn": message["turn"], "action": choose(message)}
            print(json.dumps(answer), flush=True)
        elif kind == "gameOver":
            print("game %d: %s" % (message["game"], message["line"]), file=sys.stderr)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
