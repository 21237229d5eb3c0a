/** High Card, the example game, as every side knows it (rooms/kit/game.ts): its room's name, its name for people, its protocol. */
import { defineGame } from "../kit/game";
import {
  HIGHCARD_ROOM,
  highCardMessages,
  highCardJoinOptions,
  type HighCardEvents,
  type HighCardStateView,
} from "./protocol";

export const highCardGame = defineGame<HighCardStateView, HighCardEvents>()({
  name: HIGHCARD_ROOM,
  title: "High Card",
  messages: highCardMessages,
  joinOptions: highCardJoinOptions,
  events: { dealt: "dealt", dealtTo: "dealtTo", played: "played", trick: "trick", over: "over" },
});
