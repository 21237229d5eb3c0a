/** Tractor as every side knows it (rooms/kit/game.ts): its room's name, its name for people, its protocol. */
import { defineGame } from "../kit/game";
import {
  TRACTOR_ROOM,
  tractorEvents,
  tractorJoinOptions,
  tractorMessages,
  type TractorEvents,
  type TractorStateView,
} from "./protocol";

export const tractorGame = defineGame<TractorStateView, TractorEvents>()({
  name: TRACTOR_ROOM,
  title: "Tractor",
  messages: tractorMessages,
  joinOptions: tractorJoinOptions,
  events: tractorEvents,
});
