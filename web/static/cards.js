// Camel Up Cards on the dashboard: the track of race-track cards, the racing deck, the cards
// shown this leg, the betting cards, and a tap for every action of the player to act.
"use strict";

(window.camelGames = window.camelGames || {})["camelup-cards"] = (core) => {
  const { t, sentence, el, svg, chip, colour, signed, choice, send, field, snake, $ } = core;
  const COLUMNS = 6;
  const FIGURE_STEP = { fennec: "\u22121", palm: "+1" };

  const legalOf = (name) => core.snap.legal.filter((a) => a.action === name);
  const card = (c, value) => chip(c, colour(c) + " +" + value);
  const figureName = (f) => t("figure." + f);

  function describe(a) {
    const p = { player: a.player };
    switch (a.action) {
      case "leg_setup":
        return sentence("cards.did.leg_setup", {
          deck: a.deck,
          intel: Object.keys(a.intel || {}).length
            ? el("span", {}, Object.entries(a.intel).map(([who, c]) => el("span", { class: "card" }, who, " ", card(c.camel, c.value))))
            : t("cards.no_intel"),
        });
      case "reveal": return sentence("cards.did.reveal", { ...p, card: card(a.camel, a.value) });
      case "play_hand": return sentence("cards.did.play_hand", { ...p, camel: chip(a.camel) });
      case "place_figure": return sentence("cards.did.place_figure", { ...p, figure: figureName(a.figure), space: a.space });
      case "leg_bet": return sentence("cards.did.leg_bet_" + a.kind, { ...p, camel: chip(a.camel) });
      case "final_bet":
        return a.camel
          ? sentence("cards.did.final_bet", { ...p, camel: chip(a.camel), pile: t("pile." + a.pile) })
          : sentence("cards.did.final_bet_hidden", { ...p, pile: t("pile." + a.pile), card: chip(null) });
      default: return null;
    }
  }

  // Advice for the player to act; the one who just moved may still add a bet, named first.
  function advise(a) {
    const what = adviceFor(a);
    return what && a.player && a.player !== core.snap.turn ? el("span", {}, a.player + ": ", what) : what;
  }

  function adviceFor(a) {
    switch (a.action) {
      case "reveal": return sentence("cards.advise.reveal", {});
      case "play_hand": return sentence("cards.advise.play_hand", { camel: chip(a.camel) });
      case "place_figure": return sentence("cards.advise.place_figure", { figure: figureName(a.figure), space: a.space });
      case "leg_bet": return sentence("cards.advise.leg_bet_" + a.kind, { camel: chip(a.camel) });
      case "final_bet": return sentence("cards.advise.final_bet", { camel: chip(a.camel), pile: t("pile." + a.pile) });
      default: return null;
    }
  }

  // --- the track ----------------------------------------------------------------------------

  // Each space's race-track card: its number along the track, and whether it is a sandstorm.
  function trackCards(s) {
    const cards = {};
    let at = 1, number = 0;
    while (at <= s.length) {
      const storm = s.sandstorm.includes(at);
      for (let k = 0; k < (storm ? 1 : 2) && at <= s.length; k++, at++) cards[at] = { number, storm };
      number++;
    }
    return cards;
  }

  function board() {
    const s = core.snap;
    const area = $("board");
    area.replaceChildren();
    const cells = s.length + 2;
    const rows = Math.ceil(cells / COLUMNS);
    area.setAttribute("viewBox", `0 0 ${COLUMNS * 100} ${rows * 100}`);
    area.setAttribute("aria-label", t("cards.board"));
    const cards = trackCards(s);
    const figureMode = core.composer.kind === "place_figure" && core.me.trusted;
    const figure = core.composer.figure;
    const open = new Set(legalOf("place_figure").filter((a) => a.figure === figure).map((a) => a.space));
    for (let space = 0; space < cells; space++) {
      const [cx, cy] = snake(space, COLUMNS);
      const x = cx * 100, y = cy * 100;
      const g = svg("g", { class: "space", "data-space": space });
      const finish = space === s.length + 1;
      const canPlace = figureMode && open.has(space);
      const kind = space === 0 ? "start" : finish ? "finish" : cards[space].storm ? "sandstorm" : "card-" + (cards[space].number % 2 ? "b" : "a");
      g.append(svg("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 10,
        class: "cell " + kind + (canPlace ? " can-place" : "") + (core.composer.space === space && figureMode ? " chosen" : "") }));
      const label = space === 0 ? t("cards.start") : finish ? t("cards.finish") : String(space);
      g.append(svg("text", { x: x + 10, y: y + 20, class: "space-number" }, label));
      if (kind === "sandstorm") g.append(svg("text", { x: x + 50, y: y + 42, class: "storm-label" }, t("cards.sandstorm")));
      if (space === 0) startCamels(g, x, y, s.track["0"] || []);
      else if (finish) crossedCamels(g, x, y, s.crossed);
      else {
        const at = Object.entries(s.figures).find(([, where]) => where === space);
        if (at) figureOn(g, x, y, at[0], s.figure_cards[at[0]]);
        stackOn(g, x, y, s.track[String(space)] || []);
      }
      if (canPlace) g.addEventListener("click", () => { core.composer.space = space; core.render(); });
      area.append(g);
    }
    deckStrip(s);
  }

  function camelBody(g, attrs, camel) {
    const body = svg("rect", { ...attrs, rx: 4, class: "camel d-" + camel, "data-camel": camel });
    body.append(svg("title", {}, colour(camel)));
    g.append(body);
  }

  // Bottom to top, as the stack stands.
  function stackOn(g, x, y, stack) {
    const step = Math.min(22, 66 / Math.max(stack.length, 1));
    stack.forEach((camel, k) => {
      const top = y + 90 - (k + 1) * step;
      camelBody(g, { x: x + 8, y: top, width: 84, height: step - 1.5 }, camel);
      g.append(svg("text", { x: x + 50, y: top + step / 2 + 4, class: "camel-name v-" + camel }, colour(camel)));
    });
  }

  // Side by side: camels on the Start card are never stacked.
  function startCamels(g, x, y, camels) {
    const width = 84 / Math.max(camels.length, 1);
    camels.forEach((camel, k) => {
      camelBody(g, { x: x + 8 + k * width, y: y + 30, width: width - 2, height: 60 }, camel);
      if (width >= 40) g.append(svg("text", { x: x + 7 + (k + 0.5) * width, y: y + 64, class: "camel-name v-" + camel }, colour(camel)));
    });
  }

  function crossedCamels(g, x, y, camels) {
    for (let k = 0; k < 6; k++) g.append(svg("rect", { x: x + 3 + k * 15.6, y: y + 84, width: 15.6, height: 10, class: k % 2 ? "flag-b" : "flag-a" }));
    camels.forEach((camel, k) => {
      camelBody(g, { x: x + 8, y: y + 64 - k * 14, width: 84, height: 12 }, camel);
      g.append(svg("text", { x: x + 50, y: y + 74 - k * 14, class: "camel-name small v-" + camel }, colour(camel)));
    });
  }

  function figureOn(g, x, y, figure, holder) {
    // The name, squeezed to the tile when a language's name is long, the step large below it,
    // then who holds the figure's card.
    g.append(svg("rect", { x: x + 10, y: y + 26, width: 80, height: 60, rx: 8, class: "figure f-" + figure, "data-figure": figure }));
    const name = svg("text", { x: x + 50, y: y + 41, class: "figure-name" }, figureName(figure));
    if (figureName(figure).length > 9) { name.setAttribute("textLength", 72); name.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    g.append(name, svg("text", { x: x + 50, y: y + 63, class: "figure-step" }, FIGURE_STEP[figure]));
    if (holder) {
      const owner = svg("text", { x: x + 50, y: y + 80, class: "tile-owner" }, holder);
      if (holder.length > 9) { owner.setAttribute("textLength", 70); owner.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
      g.append(owner);
    }
  }

  // Below the track: the racing deck, the intel cards shown, the cards revealed and played.
  function deckStrip(s) {
    const box = $("dice");
    box.replaceChildren();
    const row = (id, label, ...items) => el("div", { id, class: "dice-row" }, el("span", { class: "label" }, label), ...items);
    const none = () => el("span", { class: "muted" }, t("dice.none"));
    box.append(row("deck", t("cards.deck"), el("span", { class: "die-chip", dataset: { deck: s.deck } }, String(s.deck))));
    if (s.intel.length) {
      box.append(row("intel", t("cards.intel"), s.intel.map((i) => el("span", { class: "card" }, i.player, " ", card(i.camel, i.value)))));
    }
    box.append(row("revealed", t("cards.revealed"), s.revealed.length ? s.revealed.map((r) => card(r.camel, r.value)) : none()));
    const hands = Object.entries(s.hand_played).filter(([, c]) => c);
    if (hands.length) box.append(row("hands", t("cards.hands"), hands.map(([who, c]) => el("span", { class: "card" }, who, " ", chip(c)))));
    const held = s.pieces.figures.filter((f) => s.figure_cards[f]);
    if (held.length) {
      box.append(row("figure-cards", t("cards.figure_cards"), held.map((f) => el("span", { class: "card", dataset: { figure: f } }, figureName(f), ": ", s.figure_cards[f]))));
    }
  }

  // --- the player to act's choices -----------------------------------------------------------

  function kinds() {
    const s = core.snap;
    if (s.finished) return [];
    if (s.leg_setup_due) return [{ kind: "leg_setup", label: t("cards.kind.leg_setup"), draw: legSetupChoices, alone: true }];
    const draw = { reveal: revealChoices, play_hand: playHandChoices, place_figure: figureChoices, leg_bet: legBetChoices, final_bet: finalBetChoices };
    return Object.keys(draw).filter((k) => legalOf(k).length).map((kind) => ({ kind, label: t("cards.kind." + kind), draw: draw[kind], shown: kind === "reveal" }));
  }

  function prompt() {
    const s = core.snap;
    return s.bet_open_to
      ? t("cards.choose_kind_or_bet", { player: s.turn, bettor: s.bet_open_to })
      : t("choose_kind", { player: s.turn });
  }

  const button = (label, c, attrs, run) => choice(label, { class: "die-button d-" + c + (attrs.on ? " on" : ""), dataset: attrs.dataset, pressed: attrs.on }, run);

  function revealChoices() {
    const s = core.snap, c = core.composer;
    const box = el("div", { class: "choices" });
    const camels = el("div", { class: "row" });
    for (const camel of s.pieces.camels) {
      camels.append(button(colour(camel), camel, { on: c.camel === camel, dataset: { camel } }, () => { core.composer.camel = camel; core.render(); }));
    }
    box.append(el("p", { class: "step" }, t("cards.reveal.camel")), camels);
    if (!c.camel) return box;
    const values = el("div", { class: "row" });
    for (const value of [1, 2]) {
      values.append(choice("+" + value, { class: "value", dataset: { value } }, () => send({ player: s.turn, action: "reveal", camel: c.camel, value })));
    }
    box.append(el("p", { class: "step" }, t("cards.reveal.value")), values);
    return box;
  }

  function playHandChoices() {
    const row = el("div", { class: "row" });
    for (const a of legalOf("play_hand")) row.append(button(colour(a.camel), a.camel, { dataset: { camel: a.camel } }, () => send(a)));
    return el("div", { class: "choices" }, el("p", { class: "step" }, t("cards.play_hand.camel")), row);
  }

  function figureChoices() {
    const s = core.snap, c = core.composer;
    const open = legalOf("place_figure");
    const figures = [...new Set(open.map((a) => a.figure))];
    if (!figures.includes(c.figure)) c.figure = figures[0];
    const box = el("div", { class: "choices" });
    const row = el("div", { class: "row" });
    for (const f of figures) {
      row.append(choice(figureName(f) + " (" + FIGURE_STEP[f] + ")", { class: "side" + (f === c.figure ? " on" : ""), dataset: { figure: f }, pressed: f === c.figure },
        () => { core.composer.figure = f; core.render(); }));
    }
    box.append(el("p", { class: "step" }, t("cards.figure.which")), row);
    const spaces = el("div", { class: "row spaces" });
    const legal = open.filter((a) => a.figure === c.figure).map((a) => a.space);
    for (const space of legal) {
      spaces.append(choice(String(space), { class: "space-button" + (c.space === space ? " on" : ""), dataset: { space }, pressed: c.space === space },
        () => { core.composer.space = space; core.render(); }));
    }
    box.append(el("p", { class: "step" }, t("tile.space")), spaces);
    if (legal.includes(c.space)) {
      box.append(choice(t("cards.figure.place", { figure: figureName(c.figure), space: c.space }), { class: "primary wide" },
        () => send({ player: s.turn, action: "place_figure", figure: c.figure, space: c.space })));
    }
    return box;
  }

  // The player to act bets, or the one who just moved adds the bet of their turn.
  function bettors(name) {
    return [...new Set(legalOf(name).map((a) => a.player))];
  }

  function bettorRow(name, box) {
    const who = bettors(name);
    const c = core.composer;
    if (!who.includes(c.bettor)) c.bettor = who.includes(core.snap.turn) ? core.snap.turn : who[0];
    if (who.length > 1) {
      const row = el("div", { class: "row" });
      for (const p of who) {
        row.append(choice(p, { class: "side" + (p === c.bettor ? " on" : ""), dataset: { bettor: p }, pressed: p === c.bettor },
          () => { core.composer.bettor = p; core.render(); }));
      }
      box.append(el("p", { class: "step" }, t("cards.bet.who")), row);
    }
    return legalOf(name).filter((a) => a.player === c.bettor);
  }

  function legBetChoices() {
    const s = core.snap;
    const box = el("div", { class: "choices" });
    const open = bettorRow("leg_bet", box);
    for (const kind of s.pieces.kinds) {
      const row = el("div", { class: "row" });
      for (const a of open.filter((x) => x.kind === kind)) {
        const label = kind === "winner" ? colour(a.camel) + " " + s.winner_cards_left[a.camel][0] : colour(a.camel);
        row.append(button(label, a.camel, { dataset: { camel: a.camel, kind } }, () => send(a)));
      }
      if (row.children.length) box.append(el("p", { class: "step" }, t("cards.leg_bet." + kind)), row);
    }
    return box;
  }

  function finalBetChoices() {
    const s = core.snap, c = core.composer;
    const box = el("div", { class: "choices" });
    const open = bettorRow("final_bet", box);
    if (open.every((a) => a.camel === null)) {
      box.append(el("p", { class: "notice" }, t("cards.final_bet.private", { player: c.bettor })));
      return box;
    }
    const pile = c.pile || "winner";
    const piles = el("div", { class: "row" });
    for (const p of s.pieces.piles) {
      piles.append(choice(t("pile." + p), { class: "side" + (p === pile ? " on" : ""), dataset: { pile: p }, pressed: p === pile }, () => { core.composer.pile = p; core.render(); }));
    }
    const camels = el("div", { class: "row" });
    for (const a of open.filter((x) => x.pile === pile)) camels.append(button(colour(a.camel), a.camel, { dataset: { camel: a.camel } }, () => send(a)));
    box.append(el("p", { class: "step" }, t("race_bet.pile")), piles, el("p", { class: "step" }, t("race_bet.camel")), camels);
    return box;
  }

  // Before each leg: the racing deck's size and the intel card each player shows.
  function legSetupChoices() {
    const s = core.snap, c = core.composer;
    const deck = legalOf("leg_setup")[0].deck;
    const intel = c.intel || (c.intel = {});
    const box = el("div", { class: "choices" }, el("p", { class: "step" }, t("cards.leg_setup.deck", { deck, leg: s.leg })));
    if (s.setup.intel) {
      box.append(el("p", { class: "step" }, t("cards.leg_setup.intel")));
      for (const p of s.pieces.players) {
        const mine = intel[p] || {};
        const head = el("div", { class: "row intel-head" }, el("span", { class: "who" }, p));
        for (const value of [1, 2]) {
          head.append(choice("+" + value, { class: "side" + (mine.value === value ? " on" : ""), dataset: { value }, pressed: mine.value === value },
            () => { intel[p] = { ...mine, value }; core.render(); }));
        }
        const camels = el("div", { class: "row" });
        for (const camel of s.pieces.camels) {
          camels.append(choice(colour(camel), { class: "die-button small-camel d-" + camel + (mine.camel === camel ? " on" : ""), dataset: { camel }, pressed: mine.camel === camel },
            () => { intel[p] = { value: 1, ...mine, camel }; core.render(); }));
        }
        box.append(el("div", { class: "intel-row", dataset: { player: p } }, head, camels));
      }
    }
    const ready = !s.setup.intel || s.pieces.players.every((p) => intel[p] && intel[p].camel && intel[p].value);
    const go = choice(t("cards.leg_setup.go", { deck }), { class: "primary wide", dataset: { go: "leg_setup" } },
      () => send({ action: "leg_setup", deck, intel: s.setup.intel ? intel : {} }));
    go.disabled = !ready;
    box.append(go);
    return box;
  }

  // --- standings ----------------------------------------------------------------------------

  function betChip(b) {
    return chip(b.camel, colour(b.camel) + " " + (b.kind === "winner" ? b.value : t("cards.midfield_short")));
  }

  function standings() {
    const s = core.snap, me = core.me;
    const table = $("players");
    table.replaceChildren();
    // After the race every betting card has been paid: the standings are the players' coins.
    const over = s.finished;
    table.append(el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("col.player")), el("th", { scope: "col", class: "num" }, t("col.money")),
      over ? null : el("th", { scope: "col" }, t("cards.col.cards")),
      over ? null : el("th", { scope: "col", class: "num" }, t("col.if_leg_ended")))));
    const body = el("tbody");
    for (const p of s.players) {
      const lines = s.if_leg_ended.filter((l) => l.player === p.name);
      const net = lines.reduce((sum, l) => sum + l.amount, 0);
      const figures = s.pieces.figures.filter((f) => s.figure_cards[f] === p.name);
      body.append(el("tr", { class: (p.name === s.turn ? "to-act" : "") + (p.name === me.player ? " me" : ""), dataset: { player: p.name } },
        el("th", { scope: "row" }, p.name === s.turn ? "\u25B6 " : "", p.name, p.name === me.player ? el("span", { class: "you" }, t("you")) : null),
        el("td", { class: "num money" }, core.number(p.money)),
        over ? null : el("td", { class: "tickets" }, (s.leg_bets[p.name] || []).map(betChip),
          figures.map((f) => el("span", { class: "chip figure-chip", dataset: { figure: f } }, t("cards.figure_card", { figure: figureName(f) })))),
        over ? null : el("td", { class: "num " + (net > 0 ? "up" : net < 0 ? "down" : ""), title: lines.map((l) => signed(l.amount) + " " + core.reasonWords(l)).join("\n") },
          signed(net))));
    }
    table.append(body);
    const piles = $("piles");
    piles.replaceChildren(bettingCards(s));
    for (const pile of s.pieces.piles) {
      const held = Object.entries(s.final_bets[pile]);
      piles.append(el("div", { class: "pile", dataset: { pile } },
        el("span", { class: "label" }, t("cards.pile.count", { pile: t("pile." + pile), count: held.length })),
        held.map(([who, camel]) => el("span", { class: "card" }, who, " ", chip(camel)))));
    }
  }

  // The leg betting cards still on the table: each colour's Winner stack and Midfield card.
  function bettingCards(s) {
    const table = el("table", { id: "betting-cards", class: "betting" });
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("cards.col.camel")),
      el("th", { scope: "col" }, t("cards.col.winner_left")), el("th", { scope: "col" }, t("cards.col.midfield")))));
    const body = el("tbody");
    for (const camel of s.pieces.camels) {
      const taken = s.midfield_taken.includes(camel);
      const holder = taken ? Object.keys(s.leg_bets).find((p) => s.leg_bets[p].some((b) => b.camel === camel && b.kind === "midfield")) : null;
      const left = s.winner_cards_left[camel];
      body.append(el("tr", { dataset: { camel } }, el("th", { scope: "row" }, chip(camel)),
        el("td", { class: "winner-left" }, left.length ? left.join(" ") : el("span", { class: "muted" }, t("cards.none_left"))),
        el("td", { class: "midfield" }, taken ? el("span", { class: "muted" }, holder) : t("cards.midfield_left"))));
    }
    table.append(body);
    return el("div", { class: "scroll" }, table);
  }

  // --- correcting a past action -----------------------------------------------------------------

  const ACTIONS = ["reveal", "play_hand", "place_figure", "leg_bet", "final_bet", "leg_setup"];

  function editorFields(line) {
    const s = core.snap;
    const camels = (blank) => (blank ? [["", "?"]] : []).concat(s.pieces.camels.map((c) => [c, colour(c)]));
    const fields = [field("action", t("edit.kind"), ACTIONS.map((k) => [k, t("cards.kind." + k)]), line.action)];
    if (line.action !== "leg_setup") fields.unshift(field("player", t("col.player"), s.pieces.players.map((n) => [n, n]), line.player));
    if (["reveal", "play_hand", "leg_bet"].includes(line.action)) fields.push(field("camel", t("race_bet.camel"), camels(false), line.camel));
    if (line.action === "reveal") fields.push(field("value", t("cards.reveal.value"), [[1, "+1"], [2, "+2"]], line.value));
    if (line.action === "leg_bet") fields.push(field("kind", t("cards.edit.kind"), s.pieces.kinds.map((k) => [k, t("cards.kind_name." + k)]), line.kind));
    if (line.action === "place_figure") {
      fields.push(field("figure", t("cards.figure.which"), s.pieces.figures.map((f) => [f, figureName(f)]), line.figure));
      const spaces = [];
      for (let k = 1; k <= s.length + 3; k++) spaces.push([k, String(k)]);
      fields.push(field("space", t("tile.space"), spaces, line.space));
    }
    if (line.action === "final_bet") {
      fields.push(field("pile", t("race_bet.pile"), s.pieces.piles.map((p) => [p, t("pile." + p)]), line.pile));
      fields.push(field("camel", t("race_bet.camel"), camels(true), line.camel));
    }
    if (line.action === "leg_setup") {
      fields.push(field("deck", t("cards.deck"), [[10, "10"], [12, "12"]], line.deck || legSetupDeck()));
      if (s.setup.intel) {
        for (const p of s.pieces.players) {
          const shown = (line.intel || {})[p] || {};
          fields.push(field("intel-camel-" + p, t("cards.edit.intel", { player: p }), camels(false), shown.camel));
          fields.push(field("intel-value-" + p, t("cards.edit.intel_value", { player: p }), [[1, "+1"], [2, "+2"]], shown.value));
        }
      }
    }
    return fields;
  }

  function legSetupDeck() {
    const s = core.snap;
    return s.pieces.players.length * (s.setup.deck + s.setup.intel);
  }

  function readEditor(box) {
    const values = {};
    for (const select of box.querySelectorAll("select")) values[select.name] = select.value;
    if (values.action === "leg_setup") {
      const intel = {};
      for (const p of core.snap.pieces.players) {
        if (values["intel-camel-" + p]) intel[p] = { camel: values["intel-camel-" + p], value: Number(values["intel-value-" + p] || 1) };
      }
      return { action: "leg_setup", deck: Number(values.deck || legSetupDeck()), intel };
    }
    const line = { player: values.player || core.snap.turn || core.snap.pieces.players[0], action: values.action };
    for (const key of ["camel", "kind", "figure", "pile"]) if (key in values) line[key] = values[key];
    for (const key of ["value", "space"]) if (key in values) line[key] = Number(values[key]);
    if (values.action === "reveal" && !line.value) line.value = 1;
    return line;
  }

  // --- a racing card the camera was not sure of ---------------------------------------------

  // OK takes it as read, NO sets it aside; or tap the card's camel, then +1 or +2.
  let correcting = {};

  function pendingItem(r) {
    const s = core.snap;
    const sure = core.percent(r.confidence);
    const read = r.camel && [1, 2].includes(r.value);
    const seen = read ? sentence("cards.pending.seen", { card: card(r.camel, r.value), confidence: sure })
      : t("cards.pending.unread", { confidence: sure });
    const { item, answer } = core.pendingBox(r, seen, read);
    if (!answer) return item;
    const mine = correcting.id === r.id ? correcting : {};
    const camels = el("div", { class: "row", role: "group", "aria-label": t("cards.reveal.camel") });
    for (const camel of s.pieces.camels) {
      camels.append(button(colour(camel), camel, { on: mine.camel === camel, dataset: { camel } }, () => { correcting = { id: r.id, camel }; core.render(); }));
    }
    item.append(el("p", { class: "step" }, t("cards.pending.correct")), camels);
    if (!mine.camel) return item;
    const values = el("div", { class: "row" });
    for (const value of [1, 2]) {
      values.append(choice("+" + value, { class: "value", dataset: { value } }, () => { correcting = {}; answer({ camel: mine.camel, value }); }));
    }
    item.append(el("p", { class: "step" }, t("cards.reveal.value")), values);
    return item;
  }

  // A racing card in the list of what the camera read.
  function readingWords(r) {
    return [r.camel && r.value ? card(r.camel, r.value) : t("reading.unread")];
  }

  // What the odds take as given and how they were found (exact, or simulated with a standard
  // error), in this page's language: the sentence the odds give in English, from its figures.
  function assumes(odds) {
    const how = (count, error, key) => (count ? t(key, { count: core.number(count), error: core.percent(error) }) : t("cards.odds.exact"));
    return t("cards.odds.assumes", {
      legs: how(odds.leg_samples, odds.leg_stderr, "cards.odds.legs"),
      races: how(odds.race.races, odds.race.stderr, "cards.odds.races"),
    });
  }

  function newLine(player) {
    return { player, action: "reveal", camel: core.snap.pieces.camels[0], value: 1 };
  }

  function headline() { return t("headline", { leg: core.snap.leg }); }

  function status() {
    const s = core.snap;
    if (s.finished) return t("finished", { winners: s.winners.join(" & ") });
    if (s.leg_setup_due) return t("cards.setup_due", { leg: s.leg });
    return s.bet_open_to ? t("cards.to_act_or_bet", { player: s.turn, bettor: s.bet_open_to }) : t("to_act", { player: s.turn });
  }

  return { describe, advise, board, kinds, prompt, standings, editorFields, readEditor, newLine, headline, status, pendingItem, readingWords, assumes, legs: true };
};
