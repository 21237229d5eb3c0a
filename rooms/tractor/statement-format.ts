/**
 * The statement's text formats (the original problem's "Game Simulator"): parsing its input (T, then cases of
 * a header line and one line per trick), case by case from a line source, and printing its output (three lines per
 * case). Pure code over strings, so the command-line program, the rooms and the tests share it; malformed input gives
 * a sentence saying what and where.
 */
import { cardsName, parseCards, parseRank, rankLetter } from "./cards";
import { linesOfText, type LineSource } from "../kit/text-lines";
import { cardOrdering, type CardOrdering, MAIN_SUITS, type MainSuit, sharedGroup } from "./order";
import { type RecordedRound, roundContext, type RoundResult, type RoundSetup, type Seat, SEAT_NAMES } from "./scoring";

/** Every player plays this many cards in a round (the dealer buried 8 of 33, the others hold 25). */
export const CARDS_PER_PLAYER = 25;

export type ParseResult = { ok: true; rounds: RecordedRound[] } | { ok: false; reason: string };

interface Line {
  readonly number: number;
  readonly tokens: string[];
}

/** What is wrong with an input, and where: the sentence the simulator prints. */
export class StatementInputError extends Error {}

function fail(line: Line | undefined, message: string): never {
  throw new StatementInputError(line ? `line ${line.number}: ${message}` : message);
}

function parseHeader(line: Line): RoundSetup {
  if (line.tokens.length !== 4)
    fail(line, `expected "<main suit> <dealer> <rank of team 1> <rank of team 2>", got "${line.tokens.join(" ")}"`);
  const [suitText, dealerText, rank1Text, rank2Text] = line.tokens;
  const mainSuit = MAIN_SUITS.find((suit) => suit === suitText);
  if (mainSuit === undefined) fail(line, `the main suit must be one of H S C D O, got "${suitText}"`);
  const dealer = SEAT_NAMES.indexOf(dealerText);
  if (dealer < 0) fail(line, `the dealer must be one of ${SEAT_NAMES.join(", ")}, got "${dealerText}"`);
  const ranks = [rank1Text, rank2Text].map(
    (text) => parseRank(text) ?? fail(line, `"${text}" is not a rank (2-9, T, J, Q, K, A)`),
  );
  return { mainSuit: mainSuit as MainSuit, dealer: dealer as Seat, teamRanks: [ranks[0], ranks[1]] };
}

function parseTrick(line: Line, ordering: CardOrdering): number[][] {
  if (line.tokens.length !== 4)
    fail(line, `a trick line needs the 4 players' cards, got ${line.tokens.length} item(s)`);
  const plays = line.tokens.map(
    (token) => parseCards(token) ?? fail(line, `"${token}" is not a list of cards such as S6S6S7S7`),
  );
  if (plays.some((play) => play.length !== plays[0].length))
    fail(line, "every player must play as many cards as the lead");
  if (sharedGroup(plays[0], ordering) === undefined) {
    fail(line, `the lead ${cardsName(plays[0])} must be all trumps or all of one not-trump suit`);
  }
  return plays;
}

/**
 * The statement's input read case by case from a line source, so a caller can settle and print each round before
 * the next is read. Blank lines, trailing blanks and CRLF line ends are all tolerated. Each method throws a
 * StatementInputError saying what is wrong and where.
 */
export class StatementReader {
  constructor(private readonly source: LineSource) {}

  /** The number of cases, from the first line. */
  readCaseCount(): number {
    const countLine =
      this.nextLine() ?? fail(undefined, "the input is empty; it should start with the number of cases");
    if (countLine.tokens.length !== 1 || !/^\d+$/.test(countLine.tokens[0]))
      fail(countLine, "the first line must be the number of cases");
    return Number(countLine.tokens[0]);
  }

  /** The next case: its header line, then trick lines until every player has played CARDS_PER_PLAYER cards. */
  readRound(caseNumber: number): RecordedRound {
    const header = this.nextLine() ?? fail(undefined, `case ${caseNumber} is missing`);
    const setup = parseHeader(header);
    const ordering = cardOrdering(roundContext(setup));
    const tricks: number[][][] = [];
    let played = 0;
    while (played < CARDS_PER_PLAYER) {
      const line =
        this.nextLine() ??
        fail(undefined, `case ${caseNumber} ends after ${played} card(s) per player; each plays ${CARDS_PER_PLAYER}`);
      const plays = parseTrick(line, ordering);
      played += plays[0].length;
      if (played > CARDS_PER_PLAYER) fail(line, `this trick takes each player past ${CARDS_PER_PLAYER} cards`);
      tricks.push(plays);
    }
    return { setup, tricks };
  }

  /** Checks that nothing but blank lines follows the last of `count` cases. */
  expectEnd(count: number): void {
    const extra = this.nextLine();
    if (extra !== undefined) fail(extra, `unexpected text after the last of ${count} case(s)`);
  }

  /** The next line holding any text, split into its tokens. */
  private nextLine(): Line | undefined {
    // Each turn consumes a line of the source, which ends.
    for (let raw = this.source.nextLine(); raw !== undefined; raw = this.source.nextLine()) {
      const tokens = raw.trim().split(/\s+/);
      if (tokens[0] !== "") return { number: this.source.lineNumber, tokens };
    }
    return undefined;
  }
}

/** Parses the statement's whole input at once (see StatementReader). */
export function parseStatementInput(text: string): ParseResult {
  try {
    const reader = new StatementReader(linesOfText(text));
    const count = reader.readCaseCount();
    const rounds: RecordedRound[] = [];
    for (let caseNumber = 1; caseNumber <= count; caseNumber++) rounds.push(reader.readRound(caseNumber));
    reader.expectEnd(count);
    return { ok: true, rounds };
  } catch (error) {
    if (error instanceof StatementInputError) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The three output lines of one case, as accepted solutions print them. */
export function formatCaseResult(caseNumber: number, result: RoundResult): string {
  const outcome =
    result.matchWinner !== undefined
      ? `Winner: Team ${result.matchWinner}`
      : `${rankLetter(result.teamRanks[0])} ${rankLetter(result.teamRanks[1])} ${SEAT_NAMES[result.nextDealer]}`;
  return `Case #${caseNumber}:\n${result.defenderPoints}\n${outcome}\n`;
}

/** Writes rounds in the statement's input layout (T, a blank line, cases separated by blank lines). */
export function formatStatementInput(rounds: readonly RecordedRound[]): string {
  const cases = rounds.map(({ setup, tricks }) => {
    const header = `${setup.mainSuit} ${SEAT_NAMES[setup.dealer]} ${rankLetter(setup.teamRanks[0])} ${rankLetter(setup.teamRanks[1])}`;
    const lines = tricks.map((plays) => plays.map(cardsName).join(" "));
    return [header, ...lines].join("\n");
  });
  return `${rounds.length}\n\n${cases.join("\n\n")}\n`;
}
