/** Patience as every side knows it (rooms/kit/game.ts): its room's name, its name for people, its protocol. */
import { defineGame } from "../kit/game";
import {
  PATIENCE_ROOM,
  patienceEvents,
  patienceJoinOptions,
  patienceMessages,
  type PatienceEvents,
  type PatienceStateView,
} from "./protocol";

export const patienceGame = defineGame<PatienceStateView, PatienceEvents>()({
  name: PATIENCE_ROOM,
  title: "Patience",
  messages: patienceMessages,
  joinOptions: patienceJoinOptions,
  events: patienceEvents,
});
