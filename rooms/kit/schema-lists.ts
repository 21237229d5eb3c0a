/**
 * Keeping a schema list in step with the engine's list. Rewriting a list (clear, then push every item) sends every
 * item again to every client that sees it; a hand that loses one card or gains one should cost one operation.
 */
import type { ArraySchema } from "@colyseus/schema";
import { listHasPendingChanges, listItemsInPlace } from "./colyseus-internals";

type Item = string | number;

/** Whether `part` can be had from `whole` by leaving items out (in order). */
function isSubsequence(part: readonly Item[], whole: readonly Item[]): boolean {
  let matched = 0;
  for (const item of whole) if (matched < part.length && part[matched] === item) matched++;
  return matched === part.length;
}

function sameItems(shown: readonly Item[], wanted: readonly Item[]): boolean {
  return shown.length === wanted.length && shown.every((item, index) => item === wanted[index]);
}

/** Takes out of `list` (now `shown`) the items that `wanted`, a subsequence of it, leaves out: last first, so indexes hold. */
function removeLeftOut<T extends Item>(list: ArraySchema<T>, shown: readonly T[], wanted: readonly T[]): void {
  const leftOut: number[] = [];
  let matched = 0;
  shown.forEach((item, index) => {
    if (matched < wanted.length && wanted[matched] === item) matched++;
    else leftOut.push(index);
  });
  for (let i = leftOut.length - 1; i >= 0; i--) list.splice(leftOut[i]!, 1);
}

/** Whether `whole` begins with the items of `start`. */
function beginsWith(whole: readonly Item[], start: readonly Item[]): boolean {
  return start.every((item, index) => whole[index] === item);
}

/**
 * Puts into `list` (now `shown`, a subsequence of `wanted`) the items it lacks, each at its place. Items that only
 * come after the shown ones (a fresh list's cards, a card added to the cards played) go in with one push: a splice
 * lists the whole list's places again for each item it puts in.
 */
function insertMissing<T extends Item>(list: ArraySchema<T>, shown: readonly T[], wanted: readonly T[]): void {
  if (beginsWith(wanted, shown)) {
    list.push(...wanted.slice(shown.length));
    return;
  }
  let matched = 0;
  wanted.forEach((item, index) => {
    if (matched < shown.length && shown[matched] === item) matched++;
    else list.splice(index, 0, item);
  });
}

/** Puts each item that differs from what the list shows at its place: a list whose length stays (Patience's piles). */
function overwriteChanged<T extends Item>(list: ArraySchema<T>, shown: readonly T[], wanted: readonly T[]): void {
  for (let index = 0; index < wanted.length; index++) if (shown[index] !== wanted[index]) list[index] = wanted[index]!;
}

/**
 * Whether `list` has changes not yet sent (@colyseus/schema's own record of them, its change tree: read in
 * rooms/kit/colyseus-internals.ts). Splices are
 * decoded right one to a patch, but not always after other changes in the same patch (5.0.34: a splice at the end
 * after a removal put the new item before the last old one, and a Fool hand went on showing a played card when a
 * bot answered the player in the same message), so a list already changed is sent whole instead.
 */
function changedSinceLastPatch(list: ArraySchema<Item>): boolean {
  return listHasPendingChanges(list);
}

/**
 * Cleared and filled again. Overwriting places after a splice in the same patch is not decoded right either (5.0.34:
 * an item spliced in at the front, then the places overwritten, lost an item), so a list already changed is sent whole.
 */
function rewriteWhole<T extends Item>(list: ArraySchema<T>, wanted: readonly T[]): void {
  list.clear();
  list.push(...wanted);
}

/**
 * Makes `list` equal `wanted`. When items were only taken out, or only put in, keeping the others' order (a card
 * played, a card drawn into a sorted hand), only those changes are made; when the length stays, only the places
 * that changed are written (a pile's top card); anything else rewrites the list.
 */
export function syncList<T extends Item>(list: ArraySchema<T>, wanted: readonly T[]): void {
  if (sameItems(listItemsInPlace(list), wanted)) return;
  const shown = list.toArray(); // a copy: the list changes below, and the steps read what it showed before
  if (changedSinceLastPatch(list)) return rewriteWhole(list, wanted);
  if (wanted.length < shown.length && isSubsequence(wanted, shown)) return removeLeftOut(list, shown, wanted);
  if (wanted.length > shown.length && isSubsequence(shown, wanted)) return insertMissing(list, shown, wanted);
  if (wanted.length === shown.length) return overwriteChanged(list, shown, wanted);
  rewriteWhole(list, wanted);
}
