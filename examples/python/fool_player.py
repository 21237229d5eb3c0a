#!/usr/bin/env python3
"""A Fool player for bin/bridge (docs/bridge.md), standard library only.

Random legal moves: it picks one of the turn's legal moves at random, preferring to lay a card over drawing or
passing. With --greedy it plays the turn's suggestion instead (the engine's greedy bot), a stronger player.
It reads one JSON object a line and answers each turn with one line.

    fool_player.py [SEED] [--greedy]
"""
import json
import random
import sys


def choose(turn, dice, greedy):
    if greedy and turn.get("suggestion") in turn["legal"]:
        return turn["suggestion"]
    plays = [move for move in turn["legal"] if move["kind"] == "play"]
    return dice.choice(plays or turn["legal"])


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--greedy"]
    greedy = "--greedy" in sys.argv[1:]
    dice = random.Random(int(arguments[0]) if arguments else 1)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "turn":
            print(json.dumps({"turn": message["turn"], "action": choose(message, dice, greedy)}), flush=True)
        elif kind == "error":
            print("refused: %s %s" % (message["code"], message["message"]), file=sys.stderr)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
