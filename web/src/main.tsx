import { render } from "preact";
import { useEffect } from "preact/hooks";
import { JoinPage } from "./pages/Join.tsx";
import { PlayPage } from "./pages/Play.tsx";
import { StartPage } from "./pages/Start.tsx";
import { useRoute } from "./router.ts";
import { saveSeat } from "./session.ts";
import "./styles.css";

const TITLES = {
  start: "Start a game",
  join: "Join a game",
  game: "Play",
  seat: "Play",
  missing: "Not found",
} as const;

function App() {
  const route = useRoute();
  useEffect(() => {
    document.title = `${TITLES[route.page]} · Taleforge`;
  }, [route.page]);
  return (
    <>
      <button
        type="button"
        class="skip"
        onClick={() => {
          const main = document.getElementById("main");
          main?.setAttribute("tabindex", "-1");
          main?.focus();
        }}
      >
        Skip to the content
      </button>
      <nav class="topbar" aria-label="Taleforge">
        <a href="#/" class="brand">
          Taleforge
        </a>
      </nav>
      {route.page === "start" ? <StartPage /> : null}
      {route.page === "join" ? <JoinPage invite={route.invite} name={route.name} key={route.invite} /> : null}
      {route.page === "game" ? <PlayPage id={route.id} key={route.id} /> : null}
      {route.page === "seat" ? <SeatPage id={route.id} token={route.token} /> : null}
      {route.page === "missing" ? (
        <main id="main" class="page narrow">
          <h1>No such page</h1>
          <p>
            <a href="#/">Start a game</a>
          </p>
        </main>
      ) : null}
    </>
  );
}

/** A seat link from the host: this browser plays that character from now on (the link is used once). */
function SeatPage(props: { id: string; token: string }) {
  useEffect(() => {
    saveSeat({ game: props.id, playerToken: props.token });
    // The token leaves the address bar (and the history) at once.
    history.replaceState(null, "", `${location.pathname}#/game/${props.id}`);
    // After the router's own effect (a child's effects run first): it then hears the change.
    setTimeout(() => dispatchEvent(new HashChangeEvent("hashchange")), 0);
  }, [props.id, props.token]);
  return (
    <main id="main" class="page narrow">
      <p role="status">Taking your seat…</p>
    </main>
  );
}

render(<App />, document.getElementById("app")!);
