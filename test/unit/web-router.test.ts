import { routeOf } from "../../web/src/router";

const at = (pathname: string, search = "") => routeOf({ pathname, search } as Location);

describe("the page's routes", () => {
  test("name each page from its address, names decoded", () => {
    expect(at("/")).toEqual({ page: "lobby" });
    expect(at("/players/Deep%20Blue")).toEqual({ page: "player", name: "Deep Blue" });
    expect(at("/play/fool", "?room=abc")).toEqual({ page: "play", game: "fool", roomId: "abc" });
    expect(at("/tournaments/t1")).toEqual({ page: "tournament", id: "t1" });
  });

  test("an address no link makes (a stray %) is a missing page, not an error thrown", () => {
    expect(at("/players/100%")).toEqual({ page: "missing", path: "/players/100%" });
    expect(at("/players/a/b")).toEqual({ page: "missing", path: "/players/a/b" });
  });
});
