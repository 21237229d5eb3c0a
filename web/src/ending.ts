/**
 * The end of a game, said once in a dialog: the result in words, what it means and what was hidden until now,
 * and the two ways on — Play again (the same options, the same seats) and Back to the lobby. Closing it leaves
 * the finished table in view. Each game's table builds its ending from the room's view; a redraw of the same
 * ending (the same `key`) never opens it again.
 */
import { inWords } from "./connection";
import { button, h } from "./dom";
import { play } from "./sound";

export interface Ending {
  /** Which end this is (e.g. `game:3`), so a redraw of the same ended game does not open the dialog again. */
  key: string;
  /** The result in a sentence: "You won", "Bob and David win the match". */
  title: string;
  /** What the result means and what the table hid until now (the other hand, the undealt cards). */
  body: Node[];
  /** Starts the next game in the same seats and options; absent when the table cannot play again. */
  playAgain?: () => Promise<unknown>;
  /** The Play again button's word when the next step is not a whole game ("Next round"). */
  playAgainText?: string;
}

let dialog: HTMLDialogElement | undefined;
let shownKey: string | undefined;

/** Opens the ending unless this very ending was already shown (and perhaps closed) on this page. */
export function showEnding(ending: Ending): void {
  if (shownKey === ending.key) return;
  closeEnding();
  shownKey = ending.key;
  play("end");
  const refusal = h("p", { class: "notice", role: "alert" });
  const again = ending.playAgain
    ? button(
        ending.playAgainText ?? "Play again",
        () => {
          again!.disabled = true;
          ending.playAgain!().then(
            () => closeEnding(),
            (error: unknown) => {
              again!.disabled = false;
              refusal.textContent = inWords(error);
            },
          );
        },
        { class: "primary" },
      )
    : null;
  const title = h("h2", { text: ending.title, attrs: { id: "ending-title" } });
  dialog = h(
    "dialog",
    { class: "ending", attrs: { "aria-labelledby": "ending-title" } },
    title,
    h("div", { class: "ending-body" }, ...ending.body),
    refusal,
    h(
      "div",
      { class: "actions" },
      again,
      h("a", { href: "/", text: "Back to the lobby", class: "button-link", attrs: { "data-link": "" } }),
      button("Close", closeEnding, { label: "Close and look at the table" }),
    ),
  );
  document.body.append(dialog);
  dialog.showModal();
  (again ?? title).focus?.();
}

/** Closes the ending (a new game started, the page changed); the same ending is not shown again. */
export function closeEnding(): void {
  dialog?.close();
  dialog?.remove();
  dialog = undefined;
}

/** Forgets which ending was shown: a new page starts afresh. */
export function resetEndings(): void {
  closeEnding();
  shownKey = undefined;
}
