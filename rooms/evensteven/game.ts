/** Even-Steven as every side knows it (rooms/kit/game.ts): its room's name, its name for people, its protocol. */
import { defineGame } from "../kit/game";
import {
  EVENSTEVEN_ROOM,
  evenStevenEvents,
  evenStevenJoinOptions,
  evenStevenMessages,
  type EvenStevenEvents,
  type EvenStevenStateView,
} from "./protocol";

export const evenStevenGame = defineGame<EvenStevenStateView, EvenStevenEvents>()({
  name: EVENSTEVEN_ROOM,
  title: "Even-Steven",
  messages: evenStevenMessages,
  joinOptions: evenStevenJoinOptions,
  events: evenStevenEvents,
});
