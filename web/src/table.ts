/** What each game's table module gives the router: a page to watch a room and a page to play. */
import type { CardhallClient } from "../../client-sdk/index";

/** Closes what a page opened (its room session, its timers) when the person leaves the page. */
export type Teardown = () => void;

export interface TableModule {
  watch(client: CardhallClient, roomId: string, root: HTMLElement): Promise<Teardown>;
  play(client: CardhallClient, roomId: string | undefined, root: HTMLElement): Promise<Teardown>;
}
