#!/usr/bin/env python3
"""A Fool player for bin/bridge (docs/bridge.md), standard library only.

Random legal moves: it picks one of the turn's legal moves at random, preferring to lay a card over drawing or
passing. It reads one JSON object a line and answers each turn with one line.
"""
import json
import random
import sys


def choose(turn, dice):
    plays = [move for move in turn["legal"] if move["kind"] == "play"]
    return dice.choice(plays or turn["legal"])


def main():
    dice = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "turn":
            print(json.dumps({"turn": message["turn"], "action": choose(message, dice)}), flush=True)
        elif kind == "error":
            print("refused: %s %s" % (message["code"], message["message"]), file=sys.stderr)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
