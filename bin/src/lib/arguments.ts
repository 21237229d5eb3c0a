/** Number parsers for the command-line programs' options (commander calls them; a bad value is a clear error). */
import { InvalidArgumentError } from "commander";

/** A parser for whole numbers in [min, max]. */
export function wholeNumber(min: number, max: number = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(
        `expected a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : " up"}`,
      );
    }
    return value;
  };
}

/** A parser for a number of seconds in (0, max] (or [0, max] when zero is allowed). */
export function seconds(max: number, allowZero = false): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value > max || value < 0 || (value === 0 && !allowZero)) {
      throw new InvalidArgumentError(
        `expected ${allowZero ? "0" : "a positive number of seconds"} up to ${max} seconds`,
      );
    }
    return value;
  };
}

/** A parser for a server's WebSocket address: ws:// or wss://, a host, and nothing a URL may not hold. */
export function webSocketAddress(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "ws:" && url.protocol !== "wss:") || url.host === "") {
    throw new InvalidArgumentError(`expected a ws:// or wss:// address, e.g. ws://127.0.0.1:2567 (got "${text}")`);
  }
  return text;
}

/** A parser for `ws://a:1,ws://b:2`: several WebSocket addresses, comma-separated (a cluster's processes). */
export function webSocketAddresses(text: string): string[] {
  const urls = text
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new InvalidArgumentError("expected ws:// addresses, comma-separated");
  return urls.map(webSocketAddress);
}

/** A parser for one of a fixed set of words. */
export function choice<T extends string>(values: readonly T[]): (text: string) => T {
  return (text) => {
    if (!values.includes(text as T)) throw new InvalidArgumentError(`expected one of ${values.join(", ")}`);
    return text as T;
  };
}
