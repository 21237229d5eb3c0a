/**
 * The client SDK's one reliance on @colyseus/sdk beyond its public API: how its room hands the state's reflection
 * to the serializer, and what the serializer keeps of it (client-sdk/known-types.ts). It is a module of its own,
 * apart from the server's rooms/kit/colyseus-internals.ts, because the SDK is bundled for browsers, where neither
 * @colyseus/core nor Node's fs and path (which the server's module needs to read installed versions) exist; for the
 * same reason the version named in an error is the SDK's `Client.VERSION`, not its package.json's.
 *
 * The members are public fields of SchemaSerializer (`decoder`, `state`) and of the schema's Decoder (`context`,
 * its constructor); what no public API promises is the SDK's way of calling `handshake(bytes, it)`: the reflection
 * runs from `it.offset` to the end of `bytes`. Each use below checks that it still holds, the first time a session
 * joins (checkHandshakeLayout, checkDecoderTypes), and throws a clear error instead of decoding wrong states.
 *
 * Written for @colyseus/sdk 0.18.4 (with @colyseus/schema 5.0.34).
 */
import { Client, type SchemaSerializer } from "@colyseus/sdk";

export const SDK_WRITTEN_FOR = "0.18.4";

type Decoder = SchemaSerializer["decoder"];
export type HandshakeIterator = NonNullable<Parameters<SchemaSerializer["handshake"]>[1]>;

/** The classes a handshake built: enough to make a new decoder and state of the same types. */
export interface DecoderTypes {
  readonly decoderClass: new (root: object, context: Decoder["context"]) => Decoder;
  readonly context: Decoder["context"];
  readonly rootClass: new () => object;
}

/** What @colyseus/sdk no longer does as client-sdk/known-types.ts relies on. */
export class MissingSdkInternal extends Error {
  constructor(member: string, problem: string) {
    super(
      `@colyseus/sdk ${Client.VERSION}: ${member} ${problem} (needed by the shared state types, client-sdk/known-types.ts; written for @colyseus/sdk ${SDK_WRITTEN_FOR}: see client-sdk/colyseus-internals.ts)`,
    );
    this.name = "MissingSdkInternal";
  }
}

/**
 * The state's reflection in a handshake: from `it.offset` to the end of `bytes`. @colyseus/sdk 0.18.4 hands its
 * serializer the join message cut at the reflection's end; it says so nowhere public.
 */
export function reflectionBytes(bytes: Uint8Array, it: HandshakeIterator): Uint8Array {
  return bytes.subarray(it.offset);
}

/** Checks, after the SDK's own handshake, that the reflection ran to the end of `bytes` (see reflectionBytes). */
export function checkHandshakeLayout(bytes: Uint8Array, it: HandshakeIterator): void {
  if (it.offset !== bytes.byteLength)
    throw new MissingSdkInternal(
      "SchemaSerializer#handshake(bytes, it)",
      `was handed ${bytes.byteLength - it.offset} bytes more than the reflection`,
    );
}

/**
 * The decoder's class, its type context and the state's class, from a serializer whose handshake has built them
 * (its public `decoder` and `state`). Throws if a member is not there.
 */
export function decoderTypesOf(serializer: SchemaSerializer): DecoderTypes {
  const decoder = serializer.decoder as Decoder | undefined;
  if (decoder === undefined || typeof decoder.constructor !== "function")
    throw new MissingSdkInternal("SchemaSerializer#decoder", "is missing after a handshake");
  if (typeof decoder.context !== "object" || decoder.context === null)
    throw new MissingSdkInternal("Decoder#context", "is missing");
  const state = serializer.state as object | undefined;
  if (typeof state !== "object" || state === null)
    throw new MissingSdkInternal("SchemaSerializer#state", "is missing after a handshake");
  return {
    decoderClass: decoder.constructor as DecoderTypes["decoderClass"],
    context: decoder.context,
    rootClass: state.constructor as DecoderTypes["rootClass"],
  };
}

/**
 * Gives `serializer` a new decoder and state of `types`, as its own handshake would have made them, and moves the
 * iterator past the reflection (the SDK reads what follows from there).
 */
export function adoptDecoderTypes(
  serializer: SchemaSerializer,
  types: DecoderTypes,
  bytes: Uint8Array,
  it: HandshakeIterator,
): void {
  serializer.decoder = new types.decoderClass(new types.rootClass(), types.context);
  serializer.state = serializer.decoder.state;
  it.offset = bytes.byteLength;
}
