/**
 * Ties a room's schema state to the view type its protocol documents (and the SDK hands out): a constant of type
 * `StateMatchesView<State, View>` can only be `true` when the plain data a client decodes from the schema
 * (Colyseus's ToJSON) and the view are the same shape, field for field; it is `never` (a compile error) otherwise.
 */
import type { ToJSON } from "@colyseus/schema";

/** True when A and B are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type StateMatchesView<State, View> = Same<ToJSON<State>, View> extends true ? true : never;
