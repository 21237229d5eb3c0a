/**
 * The state types a joining client learns from the room, made once per kind of room instead of once per join.
 *
 * A Colyseus client learns how to decode a room's state from the room itself, as it joins: the server sends its
 * schema's reflection, and the client builds a class for every type in it. @colyseus/sdk does that for every join,
 * about half a millisecond of CPU for a Tractor table — as much as several moves, for a program
 * that joins table after table. Here a reflection the client has seen before, byte for byte, reuses the classes
 * built for it the first time; each session still gets its own decoder and its own state. The types are
 * read-only once built, so sessions may share them.
 */
import { registerSerializer, SchemaSerializer } from "@colyseus/sdk";
import {
  adoptDecoderTypes,
  checkHandshakeLayout,
  decoderTypesOf,
  reflectionBytes,
  type DecoderTypes,
  type HandshakeIterator,
} from "./colyseus-internals";

/** A server has a few kinds of room; a client that meets more than this many keeps building the rest per join. */
const MOST_KINDS = 64;
const known = new Map<string, DecoderTypes>();
const asText = new TextDecoder("latin1");

class KnownTypesSerializer extends SchemaSerializer {
  override handshake(bytes: Uint8Array, it?: HandshakeIterator): void {
    // A session given its state's class, or a handshake without its place in the message, goes the usual way.
    if (this.state || it === undefined) return super.handshake(bytes, it);
    // What the SDK hands over and what its handshake builds: client-sdk/colyseus-internals.ts.
    const reflection = asText.decode(reflectionBytes(bytes, it));
    const types = known.get(reflection);
    if (types === undefined) {
      super.handshake(bytes, it);
      if (known.size < MOST_KINDS) {
        checkHandshakeLayout(bytes, it);
        known.set(reflection, decoderTypesOf(this));
      }
      return;
    }
    adoptDecoderTypes(this, types, bytes, it);
  }
}

registerSerializer("schema", KnownTypesSerializer);
