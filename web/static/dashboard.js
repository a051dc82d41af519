// The dashboard: draws each snapshot the live stream brings, and sends the table's commands.
// Every text a person typed (names) goes into the page as text, never as markup.
// The Camel Up board games are drawn here; another game (cards.js, lastcamel.js) registers in
// window.camelGames a function that, given this core, returns how to draw and log that game.
"use strict";

(() => {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const W = boot.words;
  let snap = boot.state;
  let me = boot.viewer;
  let source = null;
  // This tab's name for its live stream: coming back after the Wi-Fi dropped, it takes over
  // its old stream's place at once (crypto.getRandomValues works without HTTPS).
  const pageId = Array.from(crypto.getRandomValues(new Uint8Array(12)),
    (b) => b.toString(16).padStart(2, "0")).join("");
  let fresh = true;
  let composer = { kind: null };
  let armed = null; // a button waiting for its confirming second tap
  let game = null; // the drawing of a game other than the board games, once registered
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);

  // --- words -----------------------------------------------------------------------------

  const { t, number, decimal, percent, ordinal, colour, worded } = window.camelWords(boot.lang, W);

  // A sentence whose {slots} may be elements (colour chips): built as nodes, never as HTML.
  function sentence(key, params) {
    const out = document.createDocumentFragment();
    const parts = (W[key] ?? key).split(/\{(\w+)\}/);
    parts.forEach((part, i) => {
      if (i % 2 === 0) { if (part) out.append(part); return; }
      const value = params[part];
      out.append(value instanceof Node ? value : String(value ?? "?"));
    });
    return out;
  }

  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  function svg(tag, attrs = {}, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const chip = (c, label) => el("span", { class: "chip c-" + (c || "hidden"), dataset: { camel: c || "hidden" } },
    label ?? colour(c));
  const signed = (n) => (n > 0 ? "+" + number(n) : n < 0 ? "\u2212" + number(-n) : number(0));

  // A payout line, why a reading waits, a notice or a refusal, in this page's language: its
  // sentence by its key, else the table's own words.
  function reasonWords(line) {
    return worded((snap.reasons || {})[line.reason], line.reason);
  }

  function describe(a) {
    const own = game && game.describe(a);
    if (own) return own;
    const p = { player: a.player };
    switch (a.action) {
      case "leg_bet": return sentence("did.leg_bet", { ...p, camel: chip(a.camel) });
      case "roll":
        if (!a.die) return sentence("did.roll_unknown", p);
        return sentence(a.numeral ? "did.roll_grey" : "did.roll", {
          ...p, die: chip(a.die), value: a.value, numeral: a.numeral ? chip(a.numeral) : "" });
      case "desert_tile": case "spectator_tile":
        return sentence("did.tile", { ...p, tile: t("tile." + a.action), space: a.space, side: t("side." + a.side) });
      case "race_bet":
        return a.camel
          ? sentence("did.race_bet", { ...p, camel: chip(a.camel), pile: t("pile." + a.pile) })
          : sentence("did.race_bet_hidden", { ...p, pile: t("pile." + a.pile), card: chip(null) });
      case "partnership": return sentence("did.partnership", { ...p, with: a.with });
      default: return document.createTextNode(JSON.stringify(a));
    }
  }

  // What an action would do, for the advice list: no player, present tense.
  function advise(a) {
    const own = game && game.advise(a);
    if (own) return own;
    switch (a.action) {
      case "leg_bet": return sentence("advise.leg_bet", { camel: chip(a.camel) });
      case "roll": return sentence("advise.roll", {});
      case "desert_tile": case "spectator_tile":
        return sentence("advise.tile", { tile: t("tile." + a.action), space: a.space, side: t("side." + a.side) });
      case "race_bet": return sentence("advise.race_bet", { camel: chip(a.camel), pile: t("pile." + a.pile) });
      case "partnership": return sentence("advise.partnership", { with: a.with });
      default: return describe(a);
    }
  }

  // --- talking to the table ---------------------------------------------------------------

  async function api(method, path, body) {
    const headers = { "X-CSRF-Token": me.csrf, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) throw new Error(data && data.error ? worded(data, data.error) : response.statusText);
    return data;
  }

  // The turn in which this page's own action was sent, until the table answers it.
  let sentIn = null;

  async function act(method, path, body) {
    sentIn = snap.turn;
    try {
      accept(await api(method, path, body));
      return true;
    } catch (e) {
      toast(e.message, true);
      return false;
    } finally {
      sentIn = null;
    }
  }

  // A notice (a refused button press, the camera gone or back) shows once, on every page.
  let noticeSeen = snap.notice ? snap.notice.id : 0;

  function accept(state) {
    if (!fresh && state.version <= snap.version) return;
    fresh = false;
    snap = state;
    if (snap.notice && snap.notice.id > noticeSeen) {
      noticeSeen = snap.notice.id;
      toast(reasonWords({ reason: snap.notice.text }), true);
    }
    // What this page sent is done, whether the live stream or the answer brings it first: what
    // was chosen for it goes, the kind stays chosen while the same player goes on.
    if (sentIn !== null) composer = { kind: snap.turn === sentIn ? composer.kind : null };
    render();
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events?page=" + pageId);
    source.onopen = () => { fresh = true; live(true); };
    source.onmessage = (event) => accept(JSON.parse(event.data));
    source.onerror = () => live(false);
  }

  function live(on) {
    const dot = $("live");
    dot.classList.toggle("on", on);
    dot.title = t(on ? "live.on" : "live.off");
    dot.setAttribute("aria-label", dot.title);
  }

  let toastTimer = null;
  $("toast").addEventListener("click", () => { $("toast").hidden = true; });

  function toast(message, isError = false) {
    const box = $("toast");
    box.textContent = message;
    box.classList.toggle("error", isError);
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, isError ? 8000 : 3000);
  }

  // A destructive button asks for a second tap within a few seconds instead of a dialog.
  function confirmTap(button, question, run) {
    if (armed === button) { armed = null; run(); return; }
    armed = button;
    const label = button.textContent;
    button.textContent = question;
    button.classList.add("armed");
    setTimeout(() => {
      if (armed === button) { armed = null; button.textContent = label; button.classList.remove("armed"); }
    }, 4000);
  }

  // --- drawing ----------------------------------------------------------------------------

  function render() {
    renderHeader();
    renderBoardAlert();
    if (game) game.board();
    else { renderBoard(); renderDice(); }
    renderPending();
    renderControls();
    renderStandings();
    renderOdds();
    renderHistory();
    renderCamera();
  }

  function renderHeader() {
    $("headline").textContent = game ? game.headline() : t("headline", { leg: snap.leg });
    $("headline").classList.toggle("long", $("headline").textContent.length > 10);
    $("turn").textContent = game ? game.status() : snap.finished
      ? t("finished", { winners: snap.winners.join(" & ") })
      : t("to_act", { player: snap.turn });
    const lock = $("lock");
    lock.textContent = me.trusted ? (me.player ? t("pin.as", { player: me.player }) : t("pin.unlocked")) : t("pin.unlock");
    lock.classList.toggle("trusted", me.trusted);
  }

  // 16 spaces around the pyramid on a 5x5 ring: 1 at the bottom left, clockwise.
  function cell(space) {
    const i = space - 1;
    if (i <= 4) return [0, 4 - i];
    if (i <= 8) return [i - 4, 0];
    if (i <= 12) return [4, i - 8];
    return [16 - i, 4];
  }

  // A straight track on a phone: cell `index` in rows of `columns`, each row running back the
  // way the one before came, so the track reads as one line. Returns [column, row].
  function snake(index, columns) {
    const row = Math.floor(index / columns), k = index % columns;
    return [row % 2 ? columns - 1 - k : k, row];
  }

  function rollsThisLeg() {
    return snap.history.filter((h) => h.leg === snap.leg && h.action.action === "roll" && h.action.die);
  }

  function renderBoard() {
    const board = $("board");
    board.replaceChildren();
    const crazy = new Set(snap.pieces.crazy_camels);
    const tileMode = composer.kind === "tile" && me.trusted;
    const legalSpaces = new Set(snap.legal.filter((a) => a.action === snap.pieces.tile).map((a) => a.space));
    const disagreeing = new Set((snap.board ? snap.board.disagreements : []).map((d) => d.space));
    board.append(svg("rect", { x: 100, y: 100, width: 300, height: 300, rx: 18, class: "desert" }));
    board.append(svg("polygon", { points: "250,140 140,330 360,330", class: "pyramid" }));
    board.append(svg("text", { x: 250, y: 250, class: "leg-label" }, t("leg", { leg: snap.leg })));
    snap.dice_in_pyramid.forEach((die, k, all) => {
      const x = 250 - (all.length * 26) / 2 + k * 26;
      const g = svg("rect", { x: x + 2, y: 282, width: 22, height: 22, rx: 4, class: "die d-" + die });
      g.append(svg("title", {}, colour(die)));
      board.append(g);
    });
    rollsThisLeg().forEach((h, k) => {
      const x = 130 + k * 42;
      board.append(svg("rect", { x, y: 345, width: 34, height: 34, rx: 6, class: "die d-" + h.action.die }));
      board.append(svg("text", { x: x + 17, y: 369, class: "die-value v-" + h.action.die }, h.action.value));
    });
    for (let space = 1; space <= snap.pieces.spaces; space++) {
      const [cx, cy] = cell(space);
      const x = cx * 100, y = cy * 100;
      const g = svg("g", { class: "space", "data-space": space });
      const canPlace = tileMode && legalSpaces.has(space);
      const rect = svg("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 10,
        class: "cell" + (canPlace ? " can-place" : "") + (composer.space === space ? " chosen" : "")
          + (disagreeing.has(space) ? " disagrees" : "") });
      g.append(rect);
      g.append(svg("text", { x: x + 10, y: y + 20, class: "space-number" }, space));
      const tile = snap.tiles[String(space)];
      if (tile) {
        const good = tile.side === snap.pieces.tile_sides[0];
        g.append(svg("rect", { x: x + 14, y: y + 30, width: 72, height: 56, rx: 8, class: "tile " + (good ? "plus" : "minus") }));
        g.append(svg("text", { x: x + 50, y: y + 58, class: "tile-side" }, good ? "+1" : "\u22121"));
        const owner = svg("text", { x: x + 50, y: y + 78, class: "tile-owner" }, tile.owner);
        if (tile.owner.length > 9) { owner.setAttribute("textLength", 66); owner.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
        g.append(owner);
        g.append(svg("title", {}, t("tile.title", { owner: tile.owner, tile: t("tile." + snap.pieces.tile), side: t("side." + tile.side) })));
      }
      const stack = snap.track[String(space)] || [];
      const step = Math.min(19, 66 / Math.max(stack.length, 1));
      stack.forEach((camel, k) => {
        const top = y + 90 - (k + 1) * step;
        const body = svg("rect", { x: x + 8, y: top, width: 84, height: step - 1.5, rx: 4,
          class: "camel d-" + camel + (crazy.has(camel) ? " crazy" : ""), "data-camel": camel });
        body.append(svg("title", {}, colour(camel)));
        g.append(body);
        if (step >= 12) {
          g.append(svg("text", { x: x + 50, y: top + step / 2 + 3, class: "camel-name v-" + camel }, colour(camel)));
        }
      });
      if (canPlace) g.addEventListener("click", () => { composer.space = space; render(); });
      board.append(g);
    }
    for (let k = 0; k < 6; k++) {
      board.append(svg("rect", { x: 96, y: 404 + k * 15.3, width: 8, height: 15.3, class: k % 2 ? "flag-b" : "flag-a" }));
    }
    if (snap.crossed.length) {
      board.append(svg("text", { x: 250, y: 120, class: "crossed" }, t("crossed", { camels: snap.crossed.map(colour).join(", ") })));
    }
  }

  function renderDice() {
    const box = $("dice");
    box.replaceChildren();
    const out = el("div", { id: "dice-out", class: "dice-row" }, el("span", { class: "label" }, t("dice.out")));
    const rolled = rollsThisLeg();
    for (const die of snap.dice_out) {
      const roll = rolled.find((h) => h.action.die === die);
      out.append(el("span", { class: "die-chip d-" + die, dataset: { die }, title: colour(die) },
        roll ? roll.action.value : "?"));
    }
    if (!snap.dice_out.length) out.append(el("span", { class: "muted" }, t("dice.none")));
    const inside = el("div", { id: "dice-in", class: "dice-row" }, el("span", { class: "label" }, t("dice.in")));
    for (const die of snap.dice_in_pyramid) {
      inside.append(el("span", { class: "die-chip small d-" + die, dataset: { die }, title: colour(die) }, colour(die)));
    }
    box.append(out, inside);
  }

  // --- the board the camera reads --------------------------------------------------------

  // While the board the camera read still contradicts the game: each space as the game and the
  // camera have it, the picture it was read from with those spaces outlined, and on an unlocked
  // phone the one roll that explains it (one tap) or the players' word that they fix the board.
  // Drawn again only when the alert changes, so its picture is fetched once, not per snapshot.
  let alertDrawn = null;

  function renderBoardAlert() {
    const alert = snap.board;
    $("board-alert").hidden = !alert;
    const drawn = JSON.stringify([alert, me.trusted]);
    if (drawn === alertDrawn) return;
    alertDrawn = drawn;
    const body = $("board-alert-body");
    body.replaceChildren();
    if (!alert) return;
    const stack = (camels) => (camels.length
      ? el("span", { class: "stack" }, camels.map((c) => chip(c, c ? undefined : "?")))
      : el("span", { class: "muted" }, t("board_alert.empty")));
    const spaces = el("table", { class: "board-check" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("board_alert.space")),
        el("th", { scope: "col" }, t("board_alert.game")), el("th", { scope: "col" }, t("board_alert.camera")))),
      el("tbody", {}, alert.disagreements.map((d) => el("tr", { dataset: { space: d.space } },
        el("th", { scope: "row" }, number(d.space)),
        el("td", { dataset: { side: "game" } }, stack(d.game)),
        el("td", { dataset: { side: "camera" } }, stack(d.camera))))));
    const words = el("div", { class: "board-words" }, spaces, el("p", { class: "muted" }, t("board_alert.stacks")));
    if (!alert.fix) {
      words.append(el("p", {}, alert.rolls ? t("board_alert.many_rolls", { count: number(alert.rolls) }) : t("board_alert.no_roll")));
    }
    if (!me.trusted) {
      words.append(el("p", { class: "step" }, t("board_alert.locked")));
    } else {
      const buttons = el("div", { class: "row" });
      if (alert.fix) {
        const { index, action } = alert.fix;
        const label = action.numeral
          ? t("board_alert.fix_grey", { value: number(action.value), numeral: colour(action.numeral) })
          : t("board_alert.fix", { die: colour(action.die), value: number(action.value) });
        buttons.append(choice(label, { class: "primary", dataset: { answer: "fix" } }, async () => {
          if (await act("PUT", "/api/actions/" + index, action)) toast(t("edit.done", { number: index + 1 }));
        }));
      }
      buttons.append(choice(t("board_alert.dismiss"), { dataset: { answer: "dismiss" } }, async () => {
        if (await act("POST", "/api/board/dismiss", { id: alert.id })) toast(t("board_alert.dismissed"));
      }));
      words.append(buttons);
    }
    body.append(words);
    if (alert.picture) body.append(boardPicture(alert));
  }

  // The frame the board was read from, the disagreeing spaces outlined in its own pixels (the
  // overlay's viewBox is the picture's size, so it scales with the image); gone if it won't load.
  function boardPicture(alert) {
    const [width, height] = alert.picture.size;
    const overlay = svg("svg", { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", "aria-hidden": "true" });
    const size = Math.round(width / 24);
    for (const d of alert.disagreements) {
      const corners = alert.picture.spaces[String(d.space)];
      if (!corners) continue;
      overlay.append(svg("polygon", { points: corners.map((c) => c.join(",")).join(" "), class: "disagrees", "data-space": d.space }));
      const middle = [0, 1].map((k) => corners.reduce((sum, c) => sum + c[k], 0) / corners.length);
      overlay.append(svg("text", { x: middle[0], y: middle[1], "font-size": size, "stroke-width": size / 6 }, number(d.space)));
    }
    const figure = el("figure", { class: "board-picture" });
    figure.append(el("img", { src: "/camera/board.jpg?alert=" + alert.id, alt: t("board_alert.picture"), width, height,
      onerror: () => { figure.hidden = true; } }), overlay);
    return figure;
  }

  // --- the player to act's choices --------------------------------------------------------

  const KINDS = ["roll", "leg_bet", "tile", "race_bet", "partnership"];

  function legalOf(kind) {
    const name = kind === "tile" ? snap.pieces.tile : kind;
    return snap.legal.filter((a) => a.action === name);
  }

  function send(line) { return act("POST", "/api/actions", line); }

  // The turn in which a person last chose something in the panel or on the board: a choice
  // kept while the turn passes says who now acts, until the next tap.
  document.addEventListener("click", (event) => {
    if (event.target.closest("#controls, #board")) composer.player = snap.turn;
  }, true);

  function renderControls() {
    const section = $("controls");
    section.hidden = !me.trusted;
    if (!me.trusted) return;
    const kinds = $("kinds");
    kinds.replaceChildren();
    const composerBox = $("composer");
    composerBox.replaceChildren();
    const undo = $("undo");
    undo.textContent = t("undo");
    undo.disabled = snap.history.length === 0;
    const open = game ? game.kinds() : boardKinds();
    if (!open.length) { composerBox.append(el("p", {}, t("finished.no_actions"))); return; }
    // A choice half made outlives each snapshot and the turn passing; a kind no longer open goes.
    if (composer.kind && !open.some((k) => k.kind === composer.kind)) composer = { kind: null };
    if (open.length === 1 && open[0].alone && composer.kind !== open[0].kind) composer = { kind: open[0].kind };
    for (const { kind, label } of open) {
      kinds.append(el("button", {
        type: "button", class: "kind" + (composer.kind === kind ? " on" : ""), "aria-pressed": String(composer.kind === kind),
        dataset: { kind }, onclick: () => { composer = { kind: composer.kind === kind ? null : kind, player: snap.turn }; render(); },
      }, label));
    }
    const chosen = open.find((k) => k.kind === composer.kind);
    // A roll or a card being tapped in is what a turn showed: once that turn has passed it was
    // logged (by the camera, the panel or another phone), so what was tapped of it goes.
    if (chosen && chosen.shown && composer.player && composer.player !== snap.turn) composer = { kind: chosen.kind };
    if (chosen && composer.player && composer.player !== snap.turn) {
      composerBox.append(el("p", { class: "notice", dataset: { passed: snap.turn } }, t("composer.turn_passed", { player: snap.turn })));
    }
    if (chosen) composerBox.append(chosen.draw());
    else composerBox.append(el("p", { class: "muted" }, game ? game.prompt() : t("choose_kind", { player: snap.turn })));
  }

  // What the player to act may do in a board game: each kind with its label and its choices.
  function boardKinds() {
    if (snap.finished) return [];
    const draw = { roll: rollChoices, leg_bet: legBetChoices, tile: tileChoices, race_bet: raceBetChoices, partnership: partnerChoices };
    return KINDS.filter((kind) => legalOf(kind).length)
      .map((kind) => ({ kind, label: t("kind." + (kind === "tile" ? snap.pieces.tile : kind)), draw: draw[kind], shown: kind === "roll" }));
  }

  // A reading the camera was not sure of waits here for OK, NO, or a tap saying what it shows.
  let correcting = {};

  // Every game's waiting readings are shown here; a game other than the board games draws its
  // own (cards.js: a racing card; lastcamel.js: the pair of dice of one throw).
  function renderPending() {
    const waiting = snap.pending || [];
    $("pending").hidden = !waiting.length;
    $("pending-list").replaceChildren(...waiting.map(game ? game.pendingItem : pendingItem));
  }

  // A waiting reading: what was seen and why it waits, then OK (when `ok` says the reading can
  // be taken as read) and NO. Returns the item, and `answer(correction)` to accept it corrected,
  // or no `answer` when the page cannot act on it (not unlocked, the race over).
  function pendingBox(r, seen, ok) {
    const item = el("div", { class: "pending-item", dataset: { reading: r.id } },
      el("p", {}, seen), el("p", { class: "muted" }, reasonWords(r)));
    if (snap.finished) return { item };
    if (!me.trusted) {
      item.append(el("p", { class: "step" }, t("pending.locked")));
      return { item };
    }
    const answer = (body) => act("POST", "/api/pending/accept", { id: r.id, ...body });
    const okButton = choice(t("pending.ok"), { class: "ok", dataset: { answer: "ok" } }, () => answer({}));
    okButton.disabled = !ok;
    const no = choice(t("pending.no"), { class: "danger", dataset: { answer: "no" } },
      () => act("POST", "/api/pending/reject", { id: r.id }));
    item.append(el("div", { class: "row" }, okButton, no));
    return { item, answer };
  }

  function pendingItem(r) {
    const sure = percent(r.confidence);
    const seen = r.die && r.value
      ? sentence("pending.seen", { die: chip(r.die, colour(r.die)), value: r.value, confidence: sure })
      : t("pending.unread", { confidence: sure });
    const { item, answer } = pendingBox(r, seen, r.die && r.value >= 1 && r.value <= 3 && (r.die !== "grey" || r.numeral));
    if (!answer) return item;
    item.append(el("p", { class: "step" }, t("pending.correct")));
    const mine = correcting.id === r.id ? correcting : {};
    const dice = el("div", { class: "row", role: "group", "aria-label": t("roll.die") });
    for (const die of snap.dice_in_pyramid) {
      dice.append(choice(colour(die), { class: "die-button d-" + die + (mine.die === die ? " on" : ""), dataset: { die }, pressed: mine.die === die },
        () => { correcting = { id: r.id, die }; render(); }));
    }
    item.append(dice);
    if (!mine.die) return item;
    if (mine.die === "grey") {
      const numerals = el("div", { class: "row" });
      for (const crazy of snap.pieces.crazy_camels) {
        numerals.append(choice(colour(crazy), { class: "die-button d-" + crazy + (mine.numeral === crazy ? " on" : ""), dataset: { numeral: crazy }, pressed: mine.numeral === crazy },
          () => { correcting = { ...mine, numeral: crazy }; render(); }));
      }
      item.append(el("p", { class: "step" }, t("roll.numeral")), numerals);
      if (!mine.numeral) return item;
    }
    const values = el("div", { class: "row" });
    for (const value of [1, 2, 3]) {
      values.append(choice(String(value), { class: "value", dataset: { value } }, () => {
        correcting = {};
        answer({ die: mine.die, value, ...(mine.die === "grey" ? { numeral: mine.numeral } : {}) });
      }));
    }
    item.append(el("p", { class: "step" }, t("roll.value")), values);
    return item;
  }

  function choice(label, attrs, run) {
    return el("button", { type: "button", class: "choice " + (attrs.class || ""), dataset: attrs.dataset, "aria-pressed": attrs.pressed === undefined ? null : String(attrs.pressed), onclick: run }, label);
  }

  function rollChoices() {
    if (!snap.dice_in_pyramid.includes(composer.die)) composer.die = null;
    const box = el("div", { class: "choices" });
    const dice = el("div", { class: "row", role: "group", "aria-label": t("roll.die") });
    for (const die of snap.dice_in_pyramid) {
      dice.append(choice(colour(die), { class: "die-button d-" + die + (composer.die === die ? " on" : ""), dataset: { die }, pressed: composer.die === die },
        () => { composer.die = die; composer.numeral = null; render(); }));
    }
    box.append(el("p", { class: "step" }, t("roll.die")), dice);
    if (!composer.die) return box;
    if (composer.die === "grey") {
      const numerals = el("div", { class: "row" });
      for (const crazy of snap.pieces.crazy_camels) {
        numerals.append(choice(colour(crazy), { class: "die-button d-" + crazy + (composer.numeral === crazy ? " on" : ""), dataset: { numeral: crazy }, pressed: composer.numeral === crazy },
          () => { composer.numeral = crazy; render(); }));
      }
      box.append(el("p", { class: "step" }, t("roll.numeral")), numerals);
      if (!composer.numeral) return box;
    }
    const values = el("div", { class: "row" });
    for (const value of [1, 2, 3]) {
      values.append(choice(String(value), { class: "value", dataset: { value } }, () => {
        const line = { player: snap.turn, action: "roll", die: composer.die, value };
        if (composer.die === "grey") line.numeral = composer.numeral;
        send(line);
      }));
    }
    box.append(el("p", { class: "step" }, t("roll.value")), values);
    return box;
  }

  function legBetChoices() {
    const row = el("div", { class: "row" });
    for (const a of legalOf("leg_bet")) {
      const top = snap.leg_bets_left[a.camel][0];
      row.append(choice(sentence("leg_bet.button", { camel: colour(a.camel), value: top }),
        { class: "die-button d-" + a.camel, dataset: { camel: a.camel } }, () => send(a)));
    }
    return row;
  }

  function tileChoices() {
    const box = el("div", { class: "choices" });
    const sides = el("div", { class: "row" });
    const side = composer.side || snap.pieces.tile_sides[0];
    snap.pieces.tile_sides.forEach((s, k) => {
      sides.append(choice(t("side." + s) + (k === 0 ? " (+1)" : " (\u22121)"), { class: "side" + (s === side ? " on" : ""), dataset: { side: s }, pressed: s === side },
        () => { composer.side = s; render(); }));
    });
    box.append(el("p", { class: "step" }, t("tile.side")), sides);
    const spaces = el("div", { class: "row spaces" });
    const legal = [...new Set(legalOf("tile").map((a) => a.space))];
    for (const space of legal) {
      spaces.append(choice(String(space), { class: "space-button" + (composer.space === space ? " on" : ""), dataset: { space }, pressed: composer.space === space },
        () => { composer.space = space; render(); }));
    }
    box.append(el("p", { class: "step" }, t("tile.space")), spaces);
    if (composer.space && legal.includes(composer.space)) {
      box.append(choice(t("tile.place", { space: composer.space, side: t("side." + side) }), { class: "primary wide" },
        () => send({ player: snap.turn, action: snap.pieces.tile, space: composer.space, side })));
    }
    return box;
  }

  function raceBetChoices() {
    const open = legalOf("race_bet");
    if (open.every((a) => a.camel === null)) {
      return el("p", { class: "notice" }, t("race_bet.private", { player: snap.turn }));
    }
    const box = el("div", { class: "choices" });
    const pile = composer.pile || "winner";
    const piles = el("div", { class: "row" });
    for (const p of ["winner", "loser"]) {
      piles.append(choice(t("pile." + p), { class: "side" + (p === pile ? " on" : ""), dataset: { pile: p }, pressed: p === pile }, () => { composer.pile = p; render(); }));
    }
    const camels = el("div", { class: "row" });
    for (const a of open.filter((x) => x.pile === pile)) {
      camels.append(choice(colour(a.camel), { class: "die-button d-" + a.camel, dataset: { camel: a.camel } }, () => send(a)));
    }
    box.append(el("p", { class: "step" }, t("race_bet.pile")), piles, el("p", { class: "step" }, t("race_bet.camel")), camels);
    return box;
  }

  function partnerChoices() {
    const row = el("div", { class: "row" });
    for (const a of legalOf("partnership")) row.append(choice(a.with, { class: "side" }, () => send(a)));
    return row;
  }

  // --- standings, odds, history, camera ---------------------------------------------------

  function renderStandings() {
    if (game) { game.standings(); return; }
    const table = $("players");
    table.replaceChildren();
    const partners = snap.pieces.partnerships;
    // After the race every ticket has been paid: the standings are the players and their coins.
    const over = snap.finished;
    table.append(el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("col.player")), el("th", { scope: "col", class: "num" }, t("col.money")),
      over ? null : el("th", { scope: "col" }, t("col.tickets")),
      over ? null : el("th", { scope: "col", class: "num" }, t("col.if_leg_ended")))));
    const body = el("tbody");
    for (const p of snap.players) {
      const lines = snap.if_leg_ended.filter((l) => l.player === p.name);
      const net = lines.reduce((sum, l) => sum + l.amount, 0);
      body.append(el("tr", { class: (p.name === snap.turn ? "to-act" : "") + (p.name === me.player ? " me" : "") },
        el("th", { scope: "row" }, p.name === snap.turn ? "\u25B6 " : "", p.name, p.name === me.player ? el("span", { class: "you" }, t("you")) : null),
        el("td", { class: "num money" }, number(p.money)),
        over ? null : el("td", { class: "tickets" }, p.leg_bets.map((b) => chip(b.camel, colour(b.camel) + " " + b.value)),
          p.pyramid_tickets ? el("span", { class: "chip pyramid-chip", dataset: { pyramid: p.pyramid_tickets } }, t("pyramid.count", { count: number(p.pyramid_tickets) })) : null,
          partners && p.partner ? el("span", { class: "chip partner-chip" }, t("partner.with", { player: p.partner })) : null),
        over ? null : el("td", { class: "num " + (net > 0 ? "up" : net < 0 ? "down" : ""), title: lines.map((l) => signed(l.amount) + " " + reasonWords(l)).join("\n") },
          signed(net))));
    }
    table.append(body);
    const piles = $("piles");
    piles.replaceChildren();
    for (const pile of ["winner", "loser"]) {
      const cards = snap.race_bets[pile];
      piles.append(el("div", { class: "pile", dataset: { pile } },
        el("span", { class: "label" }, t("pile.count", { pile: t("pile." + pile), count: cards.length })),
        cards.map((c) => el("span", { class: "card" }, c.player, " ", chip(c.camel)))));
    }
  }

  function bar(p, camel) {
    return el("td", { class: "num" }, el("span", { class: "meter" }, el("span", { class: "fill d-" + camel, dataset: { p: String(p) } })), percent(p));
  }

  function renderOdds() {
    // A game with no odds (or none published for it yet) shows no odds panel at all.
    $("odds").hidden = Boolean(game) && !snap.odds;
    if ($("odds").hidden) return;
    const toggle = $("odds-toggle");
    const show = localStorage.getItem("odds") !== "off";
    toggle.checked = show;
    const body = $("odds-body");
    body.replaceChildren();
    body.hidden = !show;
    if (!show) return;
    const odds = snap.odds;
    // After the race there is nothing left to bet on: no 0 % and 100 % columns.
    if (!odds || snap.finished) { body.append(el("p", { class: "muted" }, t(snap.finished ? "odds.over" : "odds.none"))); return; }
    const table = el("table", { class: "odds" });
    table.append(el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { class: "num" }, t("odds.leg_first")),
      el("th", { class: "num" }, t("odds.leg_second")), el("th", { class: "num" }, t("odds.race_win")), el("th", { class: "num" }, t("odds.race_lose")))));
    const rows = el("tbody");
    for (const camel of snap.pieces.camels) {
      const leg = (odds.leg && odds.leg[camel]) || [];
      rows.append(el("tr", {}, el("th", { scope: "row" }, chip(camel)), bar(leg[0] || 0, camel), bar(leg[1] || 0, camel),
        bar((odds.race && odds.race.winner[camel]) || 0, camel), bar((odds.race && odds.race.loser[camel]) || 0, camel)));
    }
    table.append(rows);
    body.append(table);
    if (odds.assumes) body.append(el("p", { class: "muted assumes" }, game && game.assumes ? game.assumes(odds) : odds.assumes));
    const actions = (odds.actions || []).slice(0, 6);
    if (actions.length) {
      body.append(el("h3", {}, t("odds.best", { player: snap.turn })));
      body.append(el("ol", { class: "advice" }, actions.map((a) => el("li", {}, advise(a.action), el("span", { class: "ev" }, t("odds.ev", { ev: decimal(a.ev, 2) }))))));
    }
    // Widths go through the CSSOM: the page's policy allows no inline style attributes.
    body.querySelectorAll(".fill").forEach((f) => { f.style.width = (100 * Number(f.dataset.p)).toFixed(1) + "%"; });
  }

  function payoutList(payouts) {
    if (!payouts.length) return null;
    return el("ul", { class: "payouts" }, payouts.map((p) =>
      el("li", { class: p.amount > 0 ? "up" : p.amount < 0 ? "down" : "" }, el("b", {}, p.player, " ", signed(p.amount)), " \u2014 ", reasonWords(p))));
  }

  function renderHistory() {
    const list = $("history-list");
    list.replaceChildren();
    let leg = null;
    const rows = [...snap.history].reverse();
    if (!rows.length) list.append(el("li", { class: "muted empty" }, t("history.empty")));
    for (const h of rows) {
      if (h.leg !== leg) {
        leg = h.leg;
      }
      const item = el("li", { class: "entry" + (h.correction ? " corrected" : ""), value: h.index + 1, dataset: { index: h.index, leg: h.leg } });
      const head = el("div", { class: "entry-head" }, el("span", { class: "number" }, "#" + (h.index + 1)),
        el("span", { class: "what" }, describe(h.action)), game && !game.legs ? null : el("span", { class: "leg-tag" }, t("leg.short", { leg: h.leg })));
      item.append(head);
      if (h.correction) {
        item.append(el("p", { class: "badge" }, h.correction.kind === "insert"
          ? t("correction.inserted")
          : sentence("correction.replaced", { was: describe(h.correction.was) })));
      }
      const paid = payoutList(h.payouts);
      if (paid) item.append(paid);
      if (me.trusted) {
        item.append(el("div", { class: "entry-tools" },
          el("button", { type: "button", class: "small", dataset: { tool: "edit" }, onclick: () => openEditor("replace", h.index, h.action) }, t("edit")),
          el("button", { type: "button", class: "small", dataset: { tool: "insert" }, onclick: () => openEditor("insert", h.index, null) }, t("insert_before")),
          el("button", { type: "button", class: "small danger", dataset: { tool: "delete" },
            onclick: (e) => confirmTap(e.currentTarget, t("delete.confirm"), () => act("DELETE", "/api/actions/" + h.index)) }, t("delete"))));
      }
      list.append(item);
    }
    const corrections = $("corrections");
    corrections.replaceChildren();
    $("corrections-title").textContent = t("corrections.count", { count: number(snap.corrections.length) });
    $("corrections-box").hidden = !snap.corrections.length;
    for (const c of [...snap.corrections].reverse()) {
      const params = { number: c.index + 1, time: new Date(c.at).toLocaleTimeString(boot.lang, { hour: "2-digit", minute: "2-digit" }) };
      if (c.was) params.was = describe(c.was);
      if (c.action) params.action = describe(c.action);
      corrections.append(el("li", { dataset: { kind: c.kind } }, sentence("correction." + c.kind, params)));
    }
  }

  // Every die the camera reported, newest first, with what became of it.
  function renderReadings() {
    const readings = (snap.readings || []).slice(-12).reverse();
    $("readings-title").hidden = !readings.length;
    $("readings").replaceChildren(...readings.map((r) => el("li", { class: "reading r-" + r.outcome, dataset: { reading: r.id } },
      ...(game ? game.readingWords(r) : [r.die ? chip(r.die, colour(r.die)) : t("reading.unread"), " ", String(r.value ?? "?")]),
      " ", el("span", { class: "muted" }, percent(r.confidence)),
      " ", el("span", { class: "badge" }, t(W["outcome." + r.outcome + "." + snap.game] ? "outcome." + r.outcome + "." + snap.game : "outcome." + r.outcome)),
      r.outcome === "refused" ? el("span", { class: "muted" }, " " + reasonWords(r)) : null)));
  }

  let cameraOn = null;
  function renderCamera() {
    renderReadings();
    const on = Boolean(snap.camera && snap.camera.on);
    $("camera").hidden = Boolean(game) && !on;
    if (on === cameraOn) return;
    cameraOn = on;
    $("camera-off").hidden = on;
    const img = $("camera-img");
    img.hidden = !on;
    if (on) img.src = "/camera.mjpg?" + Date.now();
    else img.removeAttribute("src");
  }

  // --- editing a past action --------------------------------------------------------------

  let editing = null;

  function field(name, label, options, value) {
    const select = el("select", { id: "edit-" + name, name });
    for (const [v, text] of options) {
      select.append(el("option", { value: String(v), selected: String(v) === String(value ?? "") }, text));
    }
    return el("div", { class: "field", dataset: { field: name } }, el("label", { for: "edit-" + name }, label), select);
  }

  function editorFields(line) {
    if (game) return game.editorFields(line);
    const p = snap.pieces;
    const kinds = ["roll", "leg_bet", p.tile, "race_bet"].concat(p.partnerships ? ["partnership"] : []);
    const kind = line.action;
    const fields = [
      field("player", t("col.player"), p.players.map((n) => [n, n]), line.player),
      field("action", t("edit.kind"), kinds.map((k) => [k, t("kind." + k)]), kind),
    ];
    const camels = (list) => list.map((c) => [c, colour(c)]);
    if (kind === "roll") {
      fields.push(field("die", t("roll.die"), camels(p.dice), line.die));
      fields.push(field("value", t("roll.value"), [[1, "1"], [2, "2"], [3, "3"]], line.value));
      if (line.die === "grey") fields.push(field("numeral", t("roll.numeral"), camels(p.crazy_camels), line.numeral));
    } else if (kind === "leg_bet") {
      fields.push(field("camel", t("race_bet.camel"), camels(p.camels), line.camel));
    } else if (kind === p.tile) {
      const spaces = [];
      for (let s = 2; s <= p.spaces; s++) spaces.push([s, String(s)]);
      fields.push(field("space", t("tile.space"), spaces, line.space));
      fields.push(field("side", t("tile.side"), p.tile_sides.map((s) => [s, t("side." + s)]), line.side));
    } else if (kind === "race_bet") {
      fields.push(field("pile", t("race_bet.pile"), [["winner", t("pile.winner")], ["loser", t("pile.loser")]], line.pile));
      fields.push(field("camel", t("race_bet.camel"), [["", "?"]].concat(camels(p.camels)), line.camel));
    } else if (kind === "partnership") {
      fields.push(field("with", t("col.partner"), p.players.map((n) => [n, n]), line.with));
    }
    return fields;
  }

  function readEditor() {
    if (game) return game.readEditor($("edit-fields"));
    const line = {};
    for (const select of $("edit-fields").querySelectorAll("select")) {
      const v = select.value;
      line[select.name] = ["value", "space"].includes(select.name) ? Number(v) : v;
    }
    return line;
  }

  function drawEditor(line) {
    $("edit-fields").replaceChildren(...editorFields(line));
    $("edit-fields").querySelectorAll("select").forEach((s) => s.addEventListener("change", () => {
      const now = readEditor();
      if (game || s.name === "action" || s.name === "die") drawEditor(now);
    }));
  }

  function openEditor(mode, index, line) {
    editing = { mode, index };
    const player = snap.history[index] ? snap.history[index].action.player : snap.turn;
    const start = line ? { ...line } : game ? game.newLine(player) : { player, action: "roll", die: snap.pieces.dice[0], value: 1 };
    $("edit-title").textContent = t(mode === "replace" ? "edit.title" : "insert.title", { number: index + 1 });
    $("edit-error").textContent = "";
    drawEditor(start);
    $("edit-dialog").showModal();
  }

  $("edit-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const line = readEditor();
    if (line.camel === "") { $("edit-error").textContent = t("edit.camel_needed"); return; }
    try {
      accept(await api(editing.mode === "replace" ? "PUT" : "POST", "/api/actions/" + editing.index, line));
      $("edit-dialog").close();
      toast(t(editing.mode === "replace" ? "edit.done" : "insert.done", { number: editing.index + 1 }));
    } catch (e) {
      $("edit-error").textContent = e.message;
    }
  });
  $("edit-cancel").addEventListener("click", () => $("edit-dialog").close());

  // --- the PIN and who this phone is ------------------------------------------------------

  function openPin() {
    const select = $("pin-player");
    select.replaceChildren(el("option", { value: "" }, t("pin.nobody")),
      ...snap.pieces.players.map((n) => el("option", { value: n, selected: n === me.player }, n)));
    $("pin-fields").hidden = me.trusted;
    $("pin-lock").hidden = !me.trusted;
    $("pin-submit").textContent = t(me.trusted ? "pin.save" : "pin.submit");
    $("pin-error").textContent = "";
    $("pin-input").value = "";
    $("pin-dialog").showModal();
    if (!me.trusted) $("pin-input").focus();
  }

  $("lock").addEventListener("click", openPin);
  $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const player = $("pin-player").value || null;
    try {
      me = me.trusted
        ? await api("PUT", "/api/viewer", { player })
        : await api("POST", "/api/pin", { pin: $("pin-input").value, player });
      $("pin-dialog").close();
      toast(t("pin.welcome"));
      fresh = true;
      accept(await api("GET", "/api/state"));
      connect();
    } catch (e) {
      $("pin-error").textContent = e.message;
    }
  });
  $("pin-lock").addEventListener("click", async () => {
    try {
      me = await api("DELETE", "/api/pin");
      $("pin-dialog").close();
      fresh = true;
      accept(await api("GET", "/api/state"));
      connect();
    } catch (e) {
      $("pin-error").textContent = e.message;
    }
  });

  $("undo").addEventListener("click", (event) => {
    const last = snap.history[snap.history.length - 1];
    if (!last) return;
    const label = document.createElement("span");
    label.append(t("undo.confirm"), " ", describe(last.action));
    confirmTap(event.currentTarget, label.textContent, () => act("POST", "/api/undo"));
  });

  $("odds-toggle").addEventListener("change", (event) => {
    localStorage.setItem("odds", event.target.checked ? "on" : "off");
    renderOdds();
  });

  $("lang").addEventListener("change", (event) => {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", event.target.value);
    window.location.assign(url.toString());
  });

  const core = {
    t, sentence, el, svg, chip, colour, signed, choice, send, render, field, snake, $,
    act, percent, pendingBox, number, reasonWords,
    get snap() { return snap; },
    get me() { return me; },
    get composer() { return composer; },
    set composer(value) { composer = value; },
  };
  const register = (window.camelGames || {})[snap.game];
  if (register) game = register(core);

  render();
  connect();
})();
