import type { Room } from "@colyseus/sdk";
import {
  evenStevenMessages,
  type DealEvent,
  type EvenStevenStateView,
  type HandEvent,
  type PlayedEvent,
  type VerdictEvent,
} from "../rooms/evensteven/protocol";
import { RoomSession } from "./session";

export interface EvenStevenEvents {
  hand: HandEvent;
  deal: DealEvent;
  played: PlayedEvent;
  verdict: VerdictEvent;
}

/** Watching an Even-Steven room: public state and events, no hand. */
export class EvenStevenSpectator extends RoomSession<EvenStevenStateView, EvenStevenEvents> {}

/** The player's seat in an Even-Steven room. */
export class EvenStevenPlayer extends EvenStevenSpectator {
  constructor(room: Room) {
    super(room);
  }

  /** Answers the card on the table; throws a CardhallError (NOT_IN_HAND, ALREADY_PLAYED, ...) if refused. */
  play(card: string): Promise<void> {
    return this.request(evenStevenMessages.play, { card });
  }

  /** Starts the next game once the last has its verdict. */
  newGame(options: { n?: number; seed?: number } = {}): Promise<void> {
    return this.request(evenStevenMessages.newGame, options);
  }
}
