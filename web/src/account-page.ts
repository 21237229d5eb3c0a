/**
 * The account page (`/account`): logged out, a form to log in and one to sign up; logged in, "Playing as Ann",
 * Log out, and the account's bots: make a bot, make a token for it (shown this once, with a Copy button and a
 * plain warning), see its tokens and revoke one. Every refusal is the server's sentence, shown beside what was
 * pressed.
 */
import "./account.css";
import { logIn, logOut, makeBot, makeToken, myBots, revokeToken, signUp, type Bot } from "./account";
import { inWords } from "./connection";
import { button, h } from "./dom";
import { accountName } from "./name";
import { playerPath } from "./router";
import type { Teardown } from "./table";

export async function showAccount(root: HTMLElement): Promise<Teardown> {
  document.title = "Your account · cardhall";
  const redraw = async () => {
    const name = accountName();
    root.replaceChildren(...(name === null ? loggedOut(redraw) : await loggedIn(name, redraw)));
  };
  await redraw();
  return () => undefined;
}

/** A labelled text or password box. */
function field(
  id: string,
  label: string,
  type: "text" | "password",
  autocomplete: string,
): { element: HTMLElement; input: HTMLInputElement } {
  const input = h("input", {
    type,
    attrs: { id, name: id, autocomplete, spellcheck: "false", maxlength: type === "password" ? "200" : "24" },
  });
  return {
    element: h("div", { class: "account-field" }, h("label", { text: label, attrs: { for: id } }), input),
    input,
  };
}

/** A form whose submission runs `submit`; a refusal is said in the form's own alert line and nothing else changes. */
function form(title: string, submitText: string, fields: HTMLElement[], submit: () => Promise<void>): HTMLFormElement {
  const problem = h("p", { class: "notice", role: "alert" });
  const send = h("button", { type: "submit", text: submitText });
  const element = h(
    "form",
    { class: "account-form", label: title },
    h("h2", { text: title }),
    ...fields,
    send,
    problem,
  );
  element.addEventListener("submit", (event) => {
    event.preventDefault();
    send.disabled = true;
    problem.textContent = "";
    submit()
      .catch((error: unknown) => void (problem.textContent = inWords(error)))
      .finally(() => (send.disabled = false));
  });
  return element;
}

function loggedOut(redraw: () => Promise<void>): HTMLElement[] {
  const loginName = field("login-name", "Name", "text", "username");
  const loginPassword = field("login-password", "Password", "password", "current-password");
  const signupName = field("signup-name", "Name", "text", "username");
  const signupPassword = field("signup-password", "Password (8 characters or more)", "password", "new-password");
  return [
    h("h1", { text: "Your account" }),
    h("p", {
      text: "Log in to play under your own name: nobody else can take it, and your games count on the leaderboards. Without an account you play as a guest.",
    }),
    h(
      "div",
      { class: "account-forms" },
      form("Log in", "Log in", [loginName.element, loginPassword.element], async () => {
        await logIn(loginName.input.value, loginPassword.input.value);
        await redraw();
      }),
      form("Sign up", "Sign up", [signupName.element, signupPassword.element], async () => {
        await signUp(signupName.input.value, signupPassword.input.value);
        await redraw();
      }),
    ),
  ];
}

async function loggedIn(name: string, redraw: () => Promise<void>): Promise<HTMLElement[]> {
  const bots = await myBots().catch((error: unknown) => inWords(error));
  const botName = field("bot-name", "Bot's name", "text", "off");
  return [
    h("h1", { text: "Your account" }),
    h(
      "p",
      { class: "playing-as" },
      "Playing as ",
      h("strong", { text: name }),
      " · ",
      h("a", { href: playerPath(name), text: "Your player page", attrs: { "data-link": "" } }),
    ),
    button("Log out", () => void logOut().then(redraw)),
    h("h2", { text: "Your bots" }),
    h("p", {
      text: "A bot is a program that plays under its own name: it joins with one of the bot's tokens. Each token can be revoked on its own.",
    }),
    typeof bots === "string"
      ? h("p", { class: "notice", role: "alert", text: bots })
      : h("ul", { class: "bots", label: "Your bots" }, ...bots.map((bot) => botItem(bot, redraw))),
    form("Make a bot", "Make the bot", [botName.element], async () => {
      await makeBot(botName.input.value);
      await redraw();
    }),
  ];
}

function botItem(bot: Bot, redraw: () => Promise<void>): HTMLElement {
  const shown = h("div", { class: "new-token" });
  const label = field(`token-label-${bot.name}`, "Label for a new token", "text", "off");
  const problem = h("p", { class: "notice", role: "alert" });
  const tokens = bot.tokens.map((token) =>
    h(
      "li",
      { class: "token", attrs: { "data-token": token.id } },
      h("span", { text: token.label || "(no label)" }),
      h("span", { class: "token-when", text: `made ${new Date(token.createdAt).toLocaleString()}` }),
      token.revokedAt === null
        ? button(
            "Revoke",
            () =>
              void revokeToken(bot.name, token.id).then(
                redraw,
                (error: unknown) => void (problem.textContent = inWords(error)),
              ),
            { label: `Revoke the token ${token.label || "(no label)"} of ${bot.name}` },
          )
        : h("span", { class: "token-revoked", text: "revoked" }),
    ),
  );
  const tokenForm = form(`New token for ${bot.name}`, "Make a token", [label.element], async () => {
    const made = await makeToken(bot.name, label.input.value);
    await redraw();
    // The redraw made a new item: the token is shown in it, once.
    document
      .querySelector(`[data-bot="${CSS.escape(bot.name)}"] .new-token`)
      ?.replaceChildren(...tokenShownOnce(bot.name, made.token));
  });
  return h(
    "li",
    { class: "bot", attrs: { "data-bot": bot.name } },
    h("h3", {}, h("a", { href: playerPath(bot.name), text: bot.name, attrs: { "data-link": "" } })),
    tokens.length === 0
      ? h("p", { text: "No tokens yet." })
      : h("ul", { class: "tokens", label: `Tokens of ${bot.name}` }, ...tokens),
    problem,
    shown,
    tokenForm,
  );
}

/** The token, the one time it is shown: a Copy button and what to do with it. */
function tokenShownOnce(bot: string, token: string): HTMLElement[] {
  const copied = h("span", { class: "copied", role: "status" });
  return [
    h("p", {
      class: "token-warning",
      role: "alert",
      text: `This token is shown only now: copy it and keep it secret. Anyone who has it plays as ${bot}. If it leaks, revoke it.`,
    }),
    h("code", { class: "token-value", text: token }),
    button(
      "Copy",
      () =>
        void navigator.clipboard.writeText(token).then(
          () => (copied.textContent = "Copied."),
          () => (copied.textContent = "Copying was refused: select the token and copy it by hand."),
        ),
    ),
    copied,
  ];
}
