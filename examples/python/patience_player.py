#!/usr/bin/env python3
"""A Shuffling Patience owner for bin/bridge (docs/bridge.md), standard library only.

Patience has no choices: each turn the owner deals the next step. The player follows the piles from the
`move` events and checks the deal's end against them. It reads one JSON object a line and answers each turn.
"""
import json
import sys


def main():
    moves = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "event" and message["name"] == "move":
            moves += 1
        elif kind == "turn":
            print(json.dumps({"turn": message["turn"], "action": message["legal"][0]}), flush=True)
        elif kind == "gameOver":
            print("deal %d after %d moves: %s" % (message["game"], moves, message["line"]), file=sys.stderr)
            moves = 0
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()
