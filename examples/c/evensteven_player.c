/*
 * An Even-Steven player for bin/bridge (docs/bridge.md) in C, standard library only.
 *
 * Greedy: a card covers the dealt card when its value is equal or higher (suits do not count); it covers with the
 * lowest such card, else throws its lowest card. The bridge writes one JSON object a line; this player needs only
 * a few fields of a `turn` line, so it looks for them by name instead of parsing all of the JSON: the turn's
 * number, the card to cover (the view's "toCover") and the legal plays ("card" values in "legal").
 *
 * Build: cc -O2 -o evensteven_player evensteven_player.c
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *VALUES[] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

/* A card's value, 0 for a 2 up to 12 for an Ace; -1 for no card. The suit is the card's last letter. */
static int value(const char *card) {
  size_t length = strlen(card);
  if (length < 2) return -1;
  for (int v = 0; v < 13; v++) {
    if (strlen(VALUES[v]) == length - 1 && strncmp(card, VALUES[v], length - 1) == 0) return v;
  }
  return -1;
}

/* Copies the JSON string that follows `key` (e.g. "\"toCover\":\"") into `out`; returns the text after it, or NULL. */
static const char *string_after(const char *from, const char *key, char *out, size_t size) {
  const char *at = strstr(from, key);
  if (at == NULL) return NULL;
  at += strlen(key);
  size_t n = 0;
  while (at[n] != '"' && at[n] != '\0' && n + 1 < size) {
    out[n] = at[n];
    n++;
  }
  out[n] = '\0';
  return at + n;
}

static void answer_turn(const char *line) {
  const char *turn_at = strstr(line, "\"turn\":");
  char to_cover[8], card[8], best[8] = "", lowest[8] = "";
  if (turn_at == NULL || string_after(line, "\"toCover\":\"", to_cover, sizeof to_cover) == NULL) return;
  long turn = strtol(turn_at + strlen("\"turn\":"), NULL, 10);
  const char *legal = strstr(line, "\"legal\":[");
  const char *end = legal ? strchr(legal, ']') : NULL;
  for (const char *at = legal; at != NULL && (at = string_after(at, "\"card\":\"", card, sizeof card)) != NULL && at < end;) {
    if (lowest[0] == '\0' || value(card) < value(lowest)) strcpy(lowest, card);
    if (value(card) >= value(to_cover) && (best[0] == '\0' || value(card) < value(best))) strcpy(best, card);
  }
  printf("{\"turn\":%ld,\"action\":{\"type\":\"play\",\"card\":\"%s\"}}\n", turn, best[0] ? best : lowest);
  fflush(stdout);
}

int main(void) {
  char *line = NULL;
  size_t capacity = 0;
  while (getline(&line, &capacity, stdin) != -1) {
    if (strncmp(line, "{\"type\":\"turn\"", 14) == 0) answer_turn(line);
    else if (strncmp(line, "{\"type\":\"bye\"", 13) == 0) break;
  }
  free(line);
  return 0;
}
