// The setup pages: a new game, and the camera's calibration. Both need the table's PIN once.
"use strict";

(() => {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const words = boot.words;
  const { t, worded, camelName, camelList, listOf, gameName } =
    window.camelWords(boot.lang, words);
  const $ = (id) => document.getElementById(id);
  let me = boot.viewer;

  const say = (text) => {
    const toast = $("toast");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { toast.hidden = true; }, 6000);
  };

  // One request to the table: its answer, or null once the refusal's one line is shown, in
  // this page's language where the table names its sentence.
  const call = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf,
                 Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      say(answer.error ? worded(answer, answer.error) : `${response.status}`);
      return null;
    }
    return answer;
  };

  const showPin = () => {
    $("pin-form").hidden = me.trusted;
  };
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    me = (await call("POST", "/api/pin", { pin: $("pin").value })) || me;
    showPin();
  });
  showPin();

  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };

  // --- a new game ---------------------------------------------------------------------

  const newGame = () => {
    const players = $("players");
    const addPlayer = (name = "") => {
      const input = el("input", { value: name, required: true, maxLength: 24,
                                  autocomplete: "off" });
      const remove = el("button", { type: "button", textContent: "×",
                                    title: words["new.remove_player"] });
      const row = el("li", {}, input, remove);
      remove.addEventListener("click", () => row.remove());
      players.append(row);
    };
    boot.players.forEach((name) => addPlayer(name));
    $("add-player").addEventListener("click", () => addPlayer());

    // Where each camel was placed, in the order the table placed them.
    let placed = {};
    // The camels the camera could not place, asked for until each is tapped.
    let unseen = [];
    const drawSpaces = () => {
      const game = boot.games[$("game").value];
      const box = $("start-spaces");
      box.replaceChildren();
      if (!game) return;
      // a camel the camera read elsewhere keeps its space in the row, chosen
      const spaces = (camel) => {
        const start = game.crazy_camels.includes(camel)
          ? [game.spaces, game.spaces - 1, game.spaces - 2] : [1, 2, 3];
        return placed[camel] && !start.includes(placed[camel])
          ? [...start, placed[camel]] : start;
      };
      const asked = unseen.filter((camel) => !placed[camel]);
      for (const camel of [...game.camels, ...game.crazy_camels]) {
        const row = el("div", { className: asked.includes(camel) ? "placing unseen" : "placing" },
                       el("span", { className: `camel ${camel}`, textContent: camelName(camel) }));
        for (const space of spaces(camel)) {
          const button = el("button", { type: "button", textContent: String(space),
                                        className: placed[camel] === space ? "chosen" : "" });
          button.addEventListener("click", () => {
            delete placed[camel];
            placed[camel] = space;   // placed last: on top of whoever is there
            drawSpaces();
          });
          row.append(button);
        }
        box.append(row);
      }
      const stacks = {};
      for (const [camel, space] of Object.entries(placed)) (stacks[space] ||= []).push(camel);
      box.append(el("p", { className: "hint", textContent: Object.entries(stacks)
        .map(([space, camels]) => `${space}: ${camels.map(camelName).join(" · ")}`).join(" | ") }));
      if (asked.length) {
        box.append(el("p", { id: "unseen", className: "hint",
                             textContent: `${words["new.camera_unseen"]} ${camelList(asked)}` }));
      }
    };

    // The camels as the camera last read the board, each stack bottom to top so that the
    // placed-last-on-top rule rebuilds it. Above a camel it could not see (or saw twice) the
    // order is not known: those camels are left for the person to tap, bottom first.
    $("read-board").addEventListener("click", async () => {
      const board = await call("GET", "/api/board");
      if (!board) return;
      const chosen = $("game").value;
      if (board.game !== chosen) {
        say(t("new.camera_other_game", { game: gameName(board.game) }));
        return;
      }
      const seen = board.stacks.flatMap((stack) => stack.camels);
      placed = {};
      for (const stack of board.stacks) {
        for (const camel of stack.camels) {
          if (camel === null || seen.indexOf(camel) !== seen.lastIndexOf(camel)) break;
          placed[camel] = stack.space;
        }
      }
      const game = boot.games[chosen];
      unseen = [...game.camels, ...game.crazy_camels].filter((camel) => !placed[camel]);
      drawSpaces();
    });

    // A game whose start the players place (its pieces known) asks where; the others' start
    // is set up by the table as their rule books do.
    const placedByHand = () => Boolean(boot.games[$("game").value]);
    const showGame = () => {
      const other = $("game").value === "other";
      $("players-box").hidden = other;
      $("start-box").hidden = !placedByHand();
      $("header-box").hidden = !other;
      placed = {};
      unseen = [];
      drawSpaces();
    };
    const showStart = () => {
      const asPlaced = document.querySelector("input[name=start]:checked").value === "table";
      $("start-spaces").hidden = !asPlaced;
      $("start-help").hidden = !asPlaced;
      $("read-board").hidden = !(asPlaced && boot.board_camera);
    };
    $("game").value = boot.game in boot.games ? boot.game : "other";
    $("game").addEventListener("change", showGame);
    document.querySelectorAll("input[name=start]").forEach(
      (radio) => radio.addEventListener("change", showStart));
    showGame();
    showStart();

    $("new-game").addEventListener("submit", async (event) => {
      event.preventDefault();
      let header;
      if ($("game").value === "other") {
        try {
          header = JSON.parse($("header").value);
        } catch (error) {
          header = null;
        }
        if (!header || typeof header !== "object" || Array.isArray(header)) {
          say(words["new.bad_header"]);
          return;
        }
      } else {
        header = { game: $("game").value,
                   players: [...players.querySelectorAll("input")].map((i) => i.value.trim()) };
        if (placedByHand() && document.querySelector("input[name=start]:checked").value === "table") {
          const game = boot.games[header.game];
          const missing = [...game.camels, ...game.crazy_camels].filter((c) => !placed[c]);
          if (missing.length) {
            say(`${words["new.place_all"]} ${camelList(missing)}`);
            return;
          }
          header.start = {};
          for (const [camel, space] of Object.entries(placed)) {
            (header.start[String(space)] ||= []).push(camel);
          }
        }
      }
      if (!window.confirm(words["new.confirm"])) return;
      if (await call("POST", "/api/games", header)) window.location.assign("/");
    });
  };

  // --- calibration --------------------------------------------------------------------

  const calibrate = () => {
    if (!boot.has_camera) {
      $("no-camera").hidden = false;
      $("view").hidden = true;
      $("steps").hidden = true;
      return;
    }
    const image = $("camera");
    const overlay = $("overlay");
    // A live view, asked for again a few seconds after it breaks off.
    const watch = (img, query) => {
      img.src = `/camera.mjpg?${query}`;
      img.addEventListener("error", () => {
        setTimeout(() => { img.src = `/camera.mjpg?${query}&${Date.now()}`; }, 3000);
      });
    };
    watch(image, "");

    let status = null;
    let tapping = null;   // {kind, points} while a person taps four points on the view

    const polygon = (points, className) => {
      const shape = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      shape.setAttribute("points", points.map(([x, y]) => `${x},${y}`).join(" "));
      shape.setAttribute("class", className);
      return shape;
    };
    const dot = ([x, y]) => {
      const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      Object.entries({ cx: x, cy: y, r: 6, class: "tap" })
        .forEach(([k, v]) => circle.setAttribute(k, v));
      return circle;
    };
    const draw = () => {
      const width = image.naturalWidth || 640;
      const height = image.naturalHeight || 480;
      overlay.setAttribute("viewBox", `0 0 ${width} ${height}`);
      overlay.replaceChildren();
      const table = status && status.table;
      if (table && table.board) overlay.append(polygon(table.board, "board"));
      if (table && table.zone) overlay.append(polygon(table.zone, "zone"));
      if (tapping) tapping.points.forEach((p) => overlay.append(dot(p)));
    };
    // A step learned for a game: for which, by the game's name.
    const doneFor = (game) => t("calibrate.done_for", { game: gameName(game) });
    const show = (next) => {
      status = next;
      const yes = words["calibrate.done"];
      const no = words["calibrate.not_done"];
      const mark = (id, done, text) => {
        $(id).textContent = text;
        $(id).classList.toggle("done", Boolean(done));
      };
      mark("board-state", status.table, status.table ? yes : no);
      mark("exposure-state", status.exposure,
           status.exposure ? yes : words["calibrate.automatic"]);
      mark("colours-state", status.colours, status.colours ? doneFor(status.colours) : no);
      // the camels of the game played, in a game whose board the camera reads
      $("camels-step").hidden = !(boot.game in status.camels);
      const camels = status.camels[boot.game];
      mark("camels-state", camels, camels ? doneFor(boot.game) : no);
      // the camels are learned on the board camera's picture, where the table has one
      $("camels-camera").textContent = words[status.board_camera ? "calibrate.camels_board_camera"
                                                                 : "calibrate.camels_camera"];
      if (status.board_camera && $("board-view").hidden) {
        $("board-view").hidden = false;
        watch($("board-camera"), "camera=board");
      }
      const unsaved = status.unsaved.map((found) => t(`calibrate.found.${found}`));
      $("save-state").textContent = unsaved.length
        ? `${words["calibrate.unsaved"]} ${listOf(unsaved)}` : "";
      showRefused(status.refused);
      draw();
    };
    // The colours step refused for a die not found: its line, and the frame it was tried
    // on with where the camera found each die, until the next step is taken.
    const showRefused = (refused) => {
      const picture = $("refused-picture");
      $("colours-refused").hidden = !refused;
      if (!refused) {
        picture.removeAttribute("src");
        return;
      }
      $("colours-refusal").textContent = worded(refused, refused.error);
      const src = `/api/calibration/refused.jpg?n=${refused.picture}`;
      if (picture.getAttribute("src") !== src) picture.src = src;
    };
    image.addEventListener("load", draw);

    // A step's button: the table's answer shown, and `done` said once it is taken.
    const step = (button, path, done) => $(button).addEventListener("click", async () => {
      $(button).disabled = true;
      const next = await call("POST", path);
      $(button).disabled = false;
      if (!next) {
        refresh();   // a refusal may come with a picture of where the camera looked
        return;
      }
      show(next);
      if (done) say(done);
    });
    step("find-markers", "/api/calibration/markers");
    step("lock-exposure", "/api/calibration/exposure");
    step("learn-colours", "/api/calibration/colours");
    step("learn-camels", "/api/calibration/camels");
    step("save", "/api/calibration/save", words["calibrate.saved"]);

    const startTapping = (kind) => {
      tapping = { kind, points: [] };
      $("tap-help").textContent = words[`calibrate.tap_${kind}_help`];
      $("tap-help").hidden = false;
      draw();
    };
    $("tap-markers").addEventListener("click", () => startTapping("markers"));
    $("tap-zone").addEventListener("click", () => startTapping("zone"));
    overlay.addEventListener("click", async (event) => {
      if (!tapping) return;
      const box = overlay.getBoundingClientRect();
      const scale = (image.naturalWidth || 640) / box.width;
      tapping.points.push([Math.round((event.clientX - box.left) * scale),
                           Math.round((event.clientY - box.top) * scale)]);
      draw();
      if (tapping.points.length < 4) return;
      const { kind, points } = tapping;
      tapping = null;
      $("tap-help").hidden = true;
      const next = await call("POST", "/api/calibration/points", { kind, points });
      if (next) show(next);
    });

    // Asking now and then keeps the cameras from playing the dice and camels laid out here.
    const refresh = () => call("GET", "/api/calibration").then((next) => next && show(next));
    refresh();
    setInterval(refresh, 20000);
  };

  if (document.body.dataset.page === "new-game") newGame();
  else calibrate();
})();
