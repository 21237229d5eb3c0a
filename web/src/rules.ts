/**
 * The rules pages, `/rules/<game>`: each game's rules as its room plays them (rooms/<game>/ and the original
 * problem statements they were built from), in plain words, with Tractor's table options explained. Text only:
 * a list of sections per game, drawn as headings, paragraphs and lists.
 */
import "./rules.css";
import { h } from "./dom";
import { GAME_TITLES, GAMES, type GameName } from "./games";
import type { Teardown } from "./table";

/** A paragraph, or a list of points. */
type Block = string | readonly string[];

interface Section {
  readonly heading: string;
  readonly blocks: readonly Block[];
}

interface GameRules {
  readonly summary: string;
  readonly sections: readonly Section[];
}

const RULES: Record<GameName, GameRules> = {
  evensteven: {
    summary:
      "A one-person game against the dealer: cover every card the dealer deals with a card of your hand that is at least as high.",
    sections: [
      {
        heading: "The cards",
        blocks: [
          "One ordinary deck of 52 cards, shuffled for each game. Only the value counts, from 2 (lowest) up to 10, Jack, Queen, King and Ace (highest). Suits do not matter at all.",
        ],
      },
      {
        heading: "How a game goes",
        blocks: [
          [
            "You are dealt a hand: 7 cards unless the table was started with another hand size (from 1 to 13).",
            "Then the dealer turns up one card at a time. Each time you must cover it with one card from your hand of equal or higher value. The card you play is gone from your hand.",
            "If the card you play is lower than the dealt card, you lose at once.",
            "If your hand runs out and every dealt card was covered, you win.",
            "You have 30 seconds to answer each card. If you let the time run out, the game is lost as a forfeit.",
          ],
        ],
      },
      {
        heading: "Win, lose necessarily, lose unnecessarily",
        blocks: [
          "At the end the dealer looks back at all the cards dealt in that game and says how you lost:",
          [
            "Lost necessarily: no way of playing that hand could have covered every card. Nothing could be done.",
            "Lost unnecessarily: some order of playing your cards would have covered every card, so the game could have been won.",
          ],
          "A good habit: cover each card with the lowest card that still covers it, and keep your high cards for the high cards still to come.",
        ],
      },
      {
        heading: "At the table",
        blocks: [
          "After a game ends you can deal a new one. Anyone may watch a game; only the player sees the hand until the game is over.",
        ],
      },
    ],
  },

  fool: {
    summary:
      "Japanese Fool, for two: get rid of all your cards by covering the face-up card; the last one holding cards is the Fool.",
    sections: [
      {
        heading: "The cards and the deal",
        blocks: [
          "A deck of 54 cards: the 52 ordinary cards and two jokers. Each player is dealt five cards, one at a time. The next card is turned face up on the table and counts as the dealer's play; the rest of the deck lies face down beside it.",
          "The deck never runs out in the usual way: every card laid goes straight to the bottom of the deck, so you may even draw the very card you are trying to cover.",
        ],
      },
      {
        heading: "Your turn",
        blocks: [
          [
            "Cover the face-up card with a card of the same suit or the same value.",
            "If you hold an ordinary card that covers, you must play a covering card: you may not draw instead.",
            "If no ordinary card covers, draw one card. If an ordinary card covers now, play it; if not, you pass and the turn goes to the other player.",
            "A joker covers anything you name it as, but you never have to use it: you may keep it and draw instead.",
            "When the deck is empty and nothing covers, you pass without drawing.",
          ],
        ],
      },
      {
        heading: "Special cards",
        blocks: [
          [
            "6: the next player draws one card and misses the turn.",
            "7: the next player draws two cards (or what is left of the deck) and misses the turn.",
            "Ace: the next player misses the turn without drawing.",
            "King of spades: the next player draws four cards (or what is left) and misses the turn. Other Kings are ordinary.",
            "8: the next player must cover it, drawing one card at a time until able to.",
            "Queen: whoever lays a Queen names a suit, and the next card must be of that suit.",
            "Joker: laid as any card you name; it must cover as that card, and then it counts as that card in every way (named a 6, it makes the other player draw one and miss a turn).",
          ],
          "With two players, after a card that makes the other player miss the turn, it is your turn again and you must cover your own card.",
        ],
      },
      {
        heading: "The end",
        blocks: [
          "Whoever lays their last card wins. The player left holding cards is the Fool. A game that goes on past 2,000 moves ends with no Fool.",
        ],
      },
      {
        heading: "Table options",
        blocks: [
          [
            "Opponent: the AI (which thinks several moves ahead), the greedy computer player (which lays whatever hurts you most right now), or a friend who opens the table's link.",
            "Time for each move (30 seconds unless chosen otherwise): when it runs out, the computer plays that move for you.",
          ],
        ],
      },
    ],
  },

  tractor: {
    summary: "Tractor (Shengji) for four players in two teams: win points in tricks, and climb from rank 2 past Ace.",
    sections: [
      {
        heading: "Players, teams and ranks",
        blocks: [
          "Four seats around the table, clockwise: Alice, Bob, Charles and David. Alice and Charles are team 1, Bob and David team 2. Empty seats are played by the computer, and a person can take a computer's seat at any time.",
          "Each team has a rank. Both start at 2 unless the table was started higher; a match is won by the first team to go up past Ace.",
          "Each round one team declares (the dealer's team) and the other defends. Only the defenders collect points: every 5 is worth 5 points, every 10 and every King 10 points. There are 200 points in the two decks.",
        ],
      },
      {
        heading: "The deal and the trumps",
        blocks: [
          "Two full decks with their four jokers: 108 cards. The dealer deals them one at a time, 25 to each player; the dealer then also takes the last 8 cards.",
          "The round's rank is the declarers' rank. While the cards are being dealt, anyone holding a card of that rank may show it to declare its suit the trump suit. A pair of the same card beats a single card, a pair of black jokers beats that, and a pair of red jokers is strongest (a joker pair means no trump suit). A declaration stands until someone shows a stronger one; you may only strengthen your own single into a pair. If nobody declares, there is no trump suit.",
          "The dealer then buries 8 cards face down. Everybody now has 25 cards.",
        ],
      },
      {
        heading: "The order of the cards",
        blocks: [
          "Trumps are the red joker (highest), the black joker, the trump-suit card of the round's rank, the other cards of the round's rank, and then the rest of the trump suit from Ace down. Every trump beats every other card. In the other suits the cards rank from Ace down to 2, leaving out the round's rank.",
        ],
      },
      {
        heading: "Tricks",
        blocks: [
          [
            "The dealer leads the first trick; whoever wins a trick leads the next.",
            "A lead is all trumps or all of one other suit: a single card, a pair (two identical cards), a tractor (two or more pairs next to each other in the order), or several of these at once (a throw).",
            "The others follow in turn with as many cards. You must follow the led suit (or trumps, if trumps were led) as far as you can, and match the lead's pairs and tractors with pairs and tractors of that suit as far as you can.",
            "The highest card of the led shape wins. A lead in a plain suit can only be beaten by trumps of the same shape; nothing beats a throw of trumps. When equal cards are played, the first one wins.",
            "If the defenders win the last trick, they also get the buried cards' points, doubled once for each card of the last lead's longest part (two for a single, four for a pair, and so on).",
          ],
        ],
      },
      {
        heading: "Throws: the two rules a table can play",
        blocks: [
          "A throw leads several parts of one suit at once, say an Ace and a pair of Kings. Tables play one of two rules, chosen in the lobby's table options and shown on the table:",
          [
            "Checked throws (the usual rule, and the default for tables started from this page): the throw is checked against the other three hands. If another player holds something higher of the same shape in that suit (a higher single, a higher pair, a longer or higher tractor), the throw fails: only its smallest beatable part is played, and the thrower's team pays a 10-point penalty. A declarer's failed throw gives the defenders 10 points; a defender's failed throw takes 10 points from the defenders (never below zero at the end of the round).",
            "Every throw stands (the original problem's rule): any throw is accepted as it is led, whatever the other hands hold.",
          ],
        ],
      },
      {
        heading: "The end of a round",
        blocks: [
          [
            "Defenders under 80 points: the declarers go up 3 ranks if the defenders took nothing, 2 ranks under 40 points, 1 rank under 80. They declare again, and the dealer's partner deals.",
            "Defenders with 80 points or more: the teams swap roles. From 80 to 119 nobody goes up; from 120 the defenders go up 1 rank, and 1 more for every further 40 points. The next seat clockwise deals.",
            "A team going past Ace wins the match.",
          ],
        ],
      },
      {
        heading: "Table options",
        blocks: [
          [
            "Rules: checked throws or every throw stands (see above).",
            "Starting ranks: both teams at 2 for a whole match, at 10 for a shorter one, or at Ace for a short match where the next team to go up wins.",
            "Time for each move (30 seconds unless chosen otherwise): when it runs out, the computer plays for you.",
            "The computer players' speed: how long each waits before playing.",
          ],
        ],
      },
    ],
  },

  patience: {
    summary:
      "Shuffling Patience: a deck dealt onto a 4 by 4 grid, covering pairs that add up to 11 and Jack-Queen-King triples, until the deck is dealt or there is no room.",
    sections: [
      {
        heading: "The game",
        blocks: [
          "One deck of 52 cards, dealt face up one at a time onto up to 16 piles in a 4 by 4 grid. Aces count 1 and the cards 2 to 10 their number; Jacks, Queens and Kings count nothing on their own.",
          [
            "Before each card is dealt, look at the top cards of the piles. Two cards from Ace to 10 whose values add up to 11 are a pair; a Jack, a Queen and a King together are a triple.",
            "If there is a pair or a triple, it is covered: the next cards of the deck go onto those piles, one each, instead of starting a pile. Only one pair or triple is covered at a time, and then the piles are looked at again.",
            "Which one: the top card nearest the start of the grid (left to right, top to bottom) that has a partner, with its partner nearest the start.",
            "If there is nothing to cover, the card starts a new pile.",
          ],
          "The deal comes out if the whole deck is dealt: the page then shows how many cards are in each pile. It overflows if a new pile is needed when all 16 are in use.",
        ],
      },
      {
        heading: "At the table",
        blocks: [
          "The computer deals; there is nothing to decide. The person who started the deal can pause it, deal one step at a time, resume, change the pace and deal again once it is over; anyone can watch.",
          "Table option: the dealing pace, half a second a step unless chosen otherwise.",
        ],
      },
    ],
  },
};

export function showRules(game: GameName, root: HTMLElement): Promise<Teardown> {
  const title = GAME_TITLES[game];
  document.title = `Rules of ${title} · cardhall`;
  const rules = RULES[game];
  root.append(
    h("h1", { text: `Rules of ${title}` }),
    h("p", { class: "rules-summary", text: rules.summary }),
    h(
      "nav",
      { class: "rules-links", label: "Rules pages" },
      h("a", { href: `/play/${game}`, text: `Play ${title}`, attrs: { "data-link": "" } }),
      h("a", { href: "/", text: "Back to the lobby", attrs: { "data-link": "" } }),
      ...GAMES.filter((other) => other !== game).map((other) =>
        h("a", { href: `/rules/${other}`, text: `Rules of ${GAME_TITLES[other]}`, attrs: { "data-link": "" } }),
      ),
    ),
    ...rules.sections.map((section) =>
      h(
        "section",
        { class: "rules-section" },
        h("h2", { text: section.heading }),
        ...section.blocks.map((block) =>
          typeof block === "string"
            ? h("p", { text: block })
            : h("ul", {}, ...block.map((point) => h("li", { text: point }))),
        ),
      ),
    ),
  );
  return Promise.resolve(() => undefined);
}
