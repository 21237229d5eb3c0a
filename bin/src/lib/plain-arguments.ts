/**
 * The judges' fast path through their command line. Loading commander costs several milliseconds, a large part of
 * a judge's start-up, and most runs name at most a file: those are read here, and anything else (an option,
 * --help, a mistake) goes to the judge's commander program, so messages and help are exactly commander's.
 */

/**
 * The arguments when they are at most `most` plain operands (a file name, or "-" for standard input), or
 * undefined when commander must read them.
 */
export function plainOperands(args: readonly string[], most: number): string[] | undefined {
  if (args.length > most) return undefined;
  return args.every((arg) => arg === "-" || !arg.startsWith("-")) ? args.slice() : undefined;
}

/** commander, loaded only when a command line needs it. */
export function loadCommander(): typeof import("commander") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, see above
  return require("commander") as typeof import("commander");
}
