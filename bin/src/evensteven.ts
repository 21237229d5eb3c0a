/**
 * bin/evensteven: the optimal Even-Steven player for bin/dealer (the statement's protocol on stdin/stdout).
 * It never loses unnecessarily: see rooms/evensteven/strategy.ts.
 */
import * as readline from "node:readline";
import { isCard } from "../../rooms/evensteven/cards";
import { optimalPlay } from "../../rooms/evensteven/strategy";

function main(): void {
  let hand: string[] = [];
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  input.on("line", (line) => {
    const words = line.trim().split(/\s+/);
    if (words.length > 1 && /^\d+$/.test(words[0])) {
      hand = words.slice(1); // a new game's hand: "N C1 ... CN"
    } else if (words.length === 1 && isCard(words[0]) && hand.length > 0) {
      const card = optimalPlay(hand, words[0]);
      hand = hand.filter((held) => held !== card);
      process.stdout.write(card + "\n");
    }
    // "YOU WIN" / "YOU LOSE" end a game; the next hand line starts the next one.
  });
}

main();
