/** Fool as every side knows it (rooms/kit/game.ts): its room's name, its name for people, its protocol. */
import { defineGame } from "../kit/game";
import { FOOL_ROOM, foolEvents, foolJoinOptions, foolMessages, type FoolEvents, type FoolStateView } from "./protocol";

export const foolGame = defineGame<FoolStateView, FoolEvents>()({
  name: FOOL_ROOM,
  title: "Fool",
  messages: foolMessages,
  joinOptions: foolJoinOptions,
  events: foolEvents,
});
