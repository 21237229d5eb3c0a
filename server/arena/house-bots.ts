/**
 * The house's bots in the arena (docs/arena.md, "House bots"): their list is rooms/house-bots.ts; here, the rule that
 * keeps their names from being registered.
 */
import { HOUSE_BOTS } from "../../rooms/house-bots";
import { nameKey } from "../identity/names";

export {
  FOOL_HOUSE_BOTS,
  HOUSE_BOTS,
  TRACTOR_HOUSE_BOTS,
  type FoolHouseBot,
  type HouseBot,
  type TractorHouseBot,
} from "../../rooms/house-bots";

/**
 * The keys of the house's names with their brackets and commas dropped: "AI (ai, strong)" cannot be registered
 * (brackets are not in the names rule), and neither can "AI ai strong", which reads as it.
 */
const HOUSE_KEYS = new Set(HOUSE_BOTS.map(({ name }) => nameKey(name.replace(/[^A-Za-z0-9 ]/g, ""))));

/** Whether a name is the house's (or the same name under the rule of server/identity/names.ts). */
export function isHouseName(name: string): boolean {
  return HOUSE_KEYS.has(nameKey(name.replace(/[^A-Za-z0-9 ]/g, "")));
}
