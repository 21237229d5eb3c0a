/**
 * A game as every side knows it: its room's name, its name for people and its protocol (messages, join options,
 * events, and the state view and event payloads the SDK hands out). Pure and free of server code: the server, the
 * SDK, the bridge and the web page all read the same definition (rooms/games.ts lists them; each side adds its
 * own part in its own list: server/games.ts, client-sdk/games.ts, bin/src/lib/bridge-seats.ts, web/src/games.ts).
 */
import type { z } from "zod";
import type { MessageDefinition } from "./protocol";

export interface GameDefinition<
  Name extends string = string,
  JoinOptions = unknown,
  View = unknown,
  Events extends object = object,
> {
  /** The room's name (the server's rooms, `/play/<name>`, a record's `game`). */
  readonly name: Name;
  /** The game's name for people (the lobby, page titles). */
  readonly title: string;
  /** The client → room messages. */
  readonly messages: Readonly<Record<string, MessageDefinition>>;
  /** The options a client creates or joins the room with. */
  readonly joinOptions: z.ZodType<JoinOptions>;
  /** The room → client events' names (each one of `Events`' keys: defineGame checks it). */
  readonly events: Readonly<Record<string, string>>;
  /** Never set: carries the state view's and the events' types to each side's part of the registry. */
  readonly types?: { readonly view: View; readonly events: Events };
}

/** A definition's parts as types. */
export type NameOf<G extends GameDefinition> = G["name"];
export type JoinOptionsOf<G extends GameDefinition> =
  G extends GameDefinition<string, infer JoinOptions> ? JoinOptions : never;
export type ViewOf<G extends GameDefinition> = NonNullable<G["types"]>["view"];
export type EventsOf<G extends GameDefinition> = NonNullable<G["types"]>["events"];

/**
 * `defineGame<View, Events>()({ name, title, messages, joinOptions, events })`: the view and the events are named,
 * the rest is inferred from the protocol's values.
 */
export function defineGame<View, Events extends object>() {
  return <Name extends string, JoinOptions>(
    game: Omit<GameDefinition<Name, JoinOptions, View, Events>, "types" | "events"> & {
      readonly events: Readonly<Record<string, keyof Events & string>>;
    },
  ): GameDefinition<Name, JoinOptions, View, Events> => game;
}

/** The names of a list of games, in its order. */
export function namesOf<const Games extends readonly GameDefinition[]>(
  games: Games,
): { readonly [I in keyof Games]: NameOf<Games[I]> } {
  return games.map((game) => game.name) as { readonly [I in keyof Games]: NameOf<Games[I]> };
}
