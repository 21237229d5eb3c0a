/**
 * The exit status of every command-line program (README, "Exit status"):
 * - 0: done: the whole input was read and answered;
 * - 1: failed while running: a player program misbehaved or could not be started, a server could not be reached,
 *   a table or the load test failed, the output could not be written;
 * - 2: bad usage or bad input: an unknown option or a bad value, an unreadable file, a malformed line, an input that
 *   holds nothing to do (empty input included).
 */
import type { Command } from "commander";

export const EXIT_DONE = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

/**
 * Commander's own usage errors exit with 1; this makes them exit with EXIT_BAD_INPUT (help still exits with 0), and
 * names the program in them as in every other message (`bridge: missing required argument 'program'`).
 */
export function usageErrorsAreBadInput(program: Command): Command {
  return program
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, `${program.name()}: `)) })
    .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT_DONE : EXIT_BAD_INPUT));
}
