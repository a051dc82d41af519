// The Last Camel on the dashboard: the board with its oases, the camels in arrival order, how far
// each has to go, and a roll logged by tapping the two dice and the camel each die moved.
// Owner cards are secret: nothing here can show one before its player reveals it at the end.
"use strict";

(window.camelGames = window.camelGames || {})["last-camel"] = (core) => {
  const { t, sentence, el, svg, chip, choice, send, field, snake, $ } = core;
  const COLUMNS = 6;

  const legalOf = (name) => core.snap.legal.filter((a) => a.action === name);
  const saddle = (camel) => camel.split("-");
  const camelName = (camel) => saddle(camel).map((c) => t("colour." + c)).join("/");
  const camelChip = (camel) => (camel ? chip(camel, camelName(camel)) : chip(null));
  const face = (f) => t("face." + f);
  const faceChip = (f) => el("span", { class: "chip c-" + f, dataset: { face: f } }, face(f));
  const ordinal = (n) => t("ordinal", { n });

  function moveWords(moves) {
    if (!moves.length) return t("lastcamel.no_move");
    const out = el("span", {});
    moves.forEach((m, k) => {
      if (k) out.append(", ");
      out.append(sentence("lastcamel.move", { die: faceChip(m.die), camel: camelChip(m.camel) }));
    });
    return out;
  }

  function describe(a) {
    const p = { player: a.player };
    switch (a.action) {
      case "roll":
        if (!a.dice) return sentence("lastcamel.did.roll_unknown", p);
        return sentence("lastcamel.did.roll", { ...p, first: faceChip(a.dice[0]), second: faceChip(a.dice[1]), moves: moveWords(a.moves) });
      case "reveal_owner": return sentence("lastcamel.did.reveal_owner", { ...p, camel: camelChip(a.camel) });
      default: return null;
    }
  }

  // --- the board ----------------------------------------------------------------------------

  function board() {
    const s = core.snap;
    const area = $("board");
    area.replaceChildren();
    const cells = s.spaces + 2;
    const rows = Math.ceil(cells / COLUMNS);
    area.setAttribute("viewBox", `0 0 ${COLUMNS * 100} ${rows * 100}`);
    area.setAttribute("aria-label", t("lastcamel.board"));
    for (let space = 0; space < cells; space++) {
      const [cx, cy] = snake(space, COLUMNS);
      const x = cx * 100, y = cy * 100;
      const palace = space === s.spaces + 1;
      const oasis = s.oases.includes(space);
      const g = svg("g", { class: "space", "data-space": space });
      g.append(svg("rect", { x: x + 3, y: y + 3, width: 94, height: 94, rx: 10,
        class: "cell" + (space === 0 ? " start" : palace ? " palace" : oasis ? " oasis" : "") }));
      const label = space === 0 ? t("lastcamel.start") : palace ? t("lastcamel.palace") : String(space);
      g.append(svg("text", { x: x + 10, y: y + 20, class: "space-number" }, label));
      if (oasis) g.append(svg("text", { x: x + 92, y: y + 20, class: "oasis-label" }, t("lastcamel.oasis")));
      const camels = palace ? s.finish_order : s.track[String(space)] || [];
      lineUp(g, x, y, camels, palace);
      area.append(g);
    }
    distances(s);
  }

  // In arrival order, top to bottom: the first to arrive ranks ahead. Each camel shows its saddle's
  // two colours; in the palace, the finishing order.
  function lineUp(g, x, y, camels, palace) {
    const step = Math.min(24, 68 / Math.max(camels.length, 1));
    camels.forEach((camel, k) => {
      const top = y + 26 + k * step;
      const [a, b] = saddle(camel);
      const body = svg("g", { class: "camel", "data-camel": camel });
      body.append(svg("rect", { x: x + 8, y: top, width: 42, height: step - 2, class: "saddle d-" + a }));
      body.append(svg("rect", { x: x + 50, y: top, width: 42, height: step - 2, class: "saddle d-" + b }));
      body.append(svg("rect", { x: x + 8, y: top, width: 84, height: step - 2, rx: 4, class: "camel-outline" }));
      if (palace && step >= 12) body.append(svg("text", { x: x + 50, y: top + step / 2 + 3, class: "camel-rank" }, String(k + 1)));
      body.append(svg("title", {}, camelName(camel)));
      g.append(body);
    });
  }

  // Below the board: each camel still racing with where it stands, how far to the next oasis
  // and to the palace; then the camels that have finished, first first.
  function distances(s) {
    const box = $("dice");
    box.replaceChildren();
    const table = el("table", { id: "distances", class: "distances" });
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("lastcamel.col.camel")),
      el("th", { scope: "col", class: "num" }, t("lastcamel.col.space")),
      el("th", { scope: "col", class: "num" }, t("lastcamel.col.oasis")),
      el("th", { scope: "col", class: "num" }, t("lastcamel.col.finish")))));
    const body = el("tbody");
    const racing = s.ranking.filter((c) => !s.finish_order.includes(c));
    for (const camel of racing) {
      const space = Number(Object.keys(s.track).find((k) => s.track[k].includes(camel)));
      const next = s.oases.find((o) => o > space);
      body.append(el("tr", { dataset: { camel } }, el("th", { scope: "row" }, camelChip(camel)),
        el("td", { class: "num" }, space === 0 ? t("lastcamel.start") : String(space)),
        el("td", { class: "num to-oasis" }, next === undefined ? "\u2014" : String(next - space)),
        el("td", { class: "num to-finish" }, String(s.spaces + 1 - space))));
    }
    table.append(body);
    if (racing.length) box.append(el("div", { class: "scroll" }, table));
    const done = el("div", { id: "finish-order", class: "dice-row" }, el("span", { class: "label" }, t("lastcamel.finished")));
    if (!s.finish_order.length) done.append(el("span", { class: "muted" }, t("dice.none")));
    s.finish_order.forEach((camel, k) => done.append(el("span", { class: "card", dataset: { camel } }, ordinal(k + 1), " ", camelChip(camel))));
    box.append(done);
  }

  // --- logging a roll -------------------------------------------------------------------------

  function kinds() {
    if (legalOf("roll").length) return [{ kind: "roll", label: t("kind.roll"), draw: rollChoices, alone: true, shown: true }];
    if (legalOf("reveal_owner").length) return [{ kind: "reveal_owner", label: t("lastcamel.kind.reveal_owner"), draw: revealChoices, alone: true }];
    return [];
  }

  function prompt() { return t("choose_kind", { player: core.snap.turn }); }

  // The two faces as the snapshot's `rolls` names them: in the order of the dice's faces.
  function rollKey(a, b) {
    const faces = core.snap.pieces.faces;
    return faces.indexOf(a) <= faces.indexOf(b) ? a + " " + b : b + " " + a;
  }

  // The pair of dice the camera read for this throw and waiting for the player's camels, if any.
  const pendingPair = () => (core.snap.pending || []).find((r) => r.faces);

  // The composer starts from the faces the camera read, if a pair waits and nothing is tapped
  // yet; the roll then settles that pair (both readings) rather than being logged beside it.
  function prefill(c) {
    const pair = pendingPair();
    if (c.reading && (!pair || pair.id !== c.reading)) { c.reading = null; c.dice = []; c.moves = []; }
    if (pair && !c.reading && !(c.dice || []).some(Boolean)) { c.reading = pair.id; c.dice = [...pair.faces]; c.moves = []; }
    return c.dice || (c.dice = []);
  }

  function log(c, line) {
    if (!c.reading) return send(line);
    return core.act("POST", "/api/pending/accept", { id: c.reading, dice: line.dice, moves: line.moves });
  }

  function rollChoices() {
    const s = core.snap, c = core.composer;
    const box = el("div", { class: "choices" });
    const dice = prefill(c);
    for (const [k, step] of [[0, "lastcamel.roll.first"], [1, "lastcamel.roll.second"]]) {
      const row = el("div", { class: "row", role: "group", "aria-label": t(step), dataset: { die: k } });
      for (const f of s.pieces.faces) {
        row.append(choice(face(f), { class: "die-button d-" + f + (dice[k] === f ? " on" : ""), dataset: { face: f }, pressed: dice[k] === f },
          () => { dice[k] = f; c.moves = []; core.render(); }));
      }
      box.append(el("p", { class: "step" }, t(step)), row);
    }
    if (!dice[0] || !dice[1]) return box;
    const rolled = [dice[0], dice[1]];
    const ways = s.rolls[rollKey(dice[0], dice[1])] || [];
    const line = (moves) => ({ player: s.turn, action: "roll", dice: rolled, moves });
    if (ways.length === 1 && !ways[0].length) {
      box.append(el("p", { class: "notice" }, t("lastcamel.roll.none_can_move")),
        choice(t("lastcamel.roll.log_no_move"), { class: "primary wide", dataset: { go: "no-move" } }, () => log(c, line([]))));
      return box;
    }
    let chosen = c.moves || [];
    let fits = ways.filter((w) => chosen.every((m, k) => w[k].die === m.die && w[k].camel === m.camel));
    // Camels tapped before a correction moved the board may fit none of its ways: start again.
    if (!fits.length) { chosen = c.moves = []; fits = ways; }
    const needed = ways[0].length;
    if (needed === 1) box.append(el("p", { class: "notice" }, t("lastcamel.roll.one_die")));
    const next = [...new Map(fits.filter((w) => w.length > chosen.length).map((w) => [w[chosen.length].die + " " + w[chosen.length].camel, w[chosen.length]])).values()];
    box.append(el("p", { class: "step" }, t(chosen.length ? "lastcamel.roll.then" : "lastcamel.roll.move")));
    if (chosen.length) box.append(el("p", {}, moveWords(chosen)));
    const row = el("div", { class: "row" });
    for (const m of next) {
      row.append(choice(sentence("lastcamel.move", { die: faceChip(m.die), camel: camelChip(m.camel) }),
        { class: "move-button", dataset: { die: m.die, camel: m.camel } }, () => {
          const moves = [...chosen, m];
          if (moves.length === needed) log(c, line(moves));
          else { core.composer.moves = moves; core.render(); }
        }));
    }
    box.append(row);
    return box;
  }

  // Once every camel has finished, each player shows their card, in any order.
  function revealChoices() {
    const box = el("div", { class: "choices" }, el("p", { class: "step" }, t("lastcamel.reveal.step")));
    const open = legalOf("reveal_owner");
    for (const player of [...new Set(open.map((a) => a.player))]) {
      const row = el("div", { class: "row" });
      for (const a of open.filter((x) => x.player === player)) {
        const [c1, c2] = saddle(a.camel);
        row.append(choice(camelName(a.camel), { class: "saddle-button d2-" + c1 + "-" + c2, dataset: { camel: a.camel } }, () => send(a)));
      }
      box.append(el("div", { class: "intel-row", dataset: { player } }, el("div", { class: "row intel-head" }, el("span", { class: "who" }, player)), row));
    }
    return box;
  }

  // --- players ------------------------------------------------------------------------------

  function standings() {
    const s = core.snap, me = core.me;
    const table = $("players");
    table.replaceChildren();
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("col.player")),
      el("th", { scope: "col" }, t("lastcamel.col.owner")))));
    const body = el("tbody");
    const last = s.finish_order.length === s.pieces.camels.length ? s.finish_order[s.finish_order.length - 1] : null;
    for (const p of s.players) {
      body.append(el("tr", { class: (p.name === s.turn ? "to-act" : "") + (p.name === me.player ? " me" : "") + (s.winners.includes(p.name) ? " winner" : ""), dataset: { player: p.name } },
        el("th", { scope: "row" }, p.name === s.turn ? "\u25B6 " : "", p.name, p.name === me.player ? el("span", { class: "you" }, t("you")) : null),
        el("td", { class: "owner" }, p.camel ? camelChip(p.camel) : el("span", { class: "muted" }, t("lastcamel.secret")),
          p.camel && p.camel === last ? el("span", { class: "chip winner-chip" }, t("lastcamel.last_camel")) : null)));
    }
    table.append(body);
    $("piles").replaceChildren(el("p", { class: "muted" }, t("lastcamel.owners_rule")));
  }

  // --- correcting a past roll ---------------------------------------------------------------

  function editorFields(line) {
    const s = core.snap;
    const camels = s.pieces.camels.map((c) => [c, camelName(c)]);
    const fields = [
      field("player", t("col.player"), s.pieces.players.map((n) => [n, n]), line.player),
      field("action", t("edit.kind"), [["roll", t("kind.roll")], ["reveal_owner", t("lastcamel.kind.reveal_owner")]], line.action),
    ];
    if (line.action === "reveal_owner") {
      fields.push(field("camel", t("lastcamel.col.camel"), camels, line.camel));
      return fields;
    }
    const dice = line.dice || [s.pieces.faces[0], s.pieces.faces[0]];
    const faces = s.pieces.faces.map((f) => [f, face(f)]);
    fields.push(field("die1", t("lastcamel.roll.first"), faces, dice[0]), field("die2", t("lastcamel.roll.second"), faces, dice[1]));
    const moves = line.moves || [];
    for (const k of [0, 1]) {
      const m = moves[k] || {};
      fields.push(field("move" + k + "-die", t("lastcamel.edit.move_die", { n: k + 1 }), [["", t("lastcamel.edit.no_move")], ...[...new Set(dice)].map((f) => [f, face(f)])], m.die));
      fields.push(field("move" + k + "-camel", t("lastcamel.edit.move_camel", { n: k + 1 }), camels, m.camel));
    }
    return fields;
  }

  function readEditor(box) {
    const v = {};
    for (const select of box.querySelectorAll("select")) v[select.name] = select.value;
    if (v.action === "reveal_owner") return { player: v.player, action: "reveal_owner", camel: v.camel || core.snap.pieces.camels[0] };
    const moves = [0, 1].filter((k) => v["move" + k + "-die"]).map((k) => ({ die: v["move" + k + "-die"], camel: v["move" + k + "-camel"] }));
    const first = core.snap.pieces.faces[0];
    return { player: v.player, action: "roll", dice: [v.die1 || first, v.die2 || first], moves };
  }

  // --- the two dice the camera read -----------------------------------------------------------

  const readFace = (f) => (f ? faceChip(f) : el("span", { class: "chip" }, t("reading.unread")));

  // A throw's pair waits here: OK logs it when the faces allow one way only, NO sets both aside;
  // the roll composer below starts from the faces read, to correct a face and tap the camels.
  function pendingItem(r) {
    const [a, b] = r.faces;
    const seen = sentence("lastcamel.pending.seen", {
      first: readFace(a), second: readFace(b),
      confidence: core.percent(Math.min(...r.confidences)) });
    const ways = a && b ? core.snap.rolls[rollKey(a, b)] || [] : [];
    const { item, answer } = core.pendingBox(r, seen, ways.length === 1);
    if (answer) item.append(el("p", { class: "step" }, t("lastcamel.pending.correct")));
    return item;
  }

  // A die's face in the list of what the camera read.
  function readingWords(r) {
    return [r.face ? faceChip(r.face) : t("reading.unread")];
  }

  function newLine(player) {
    const f = core.snap.pieces.faces[0];
    return { player, action: "roll", dice: [f, f], moves: [] };
  }

  function headline() { return t("game.last-camel"); }

  function status() {
    const s = core.snap;
    if (!s.finished) return t("lastcamel.to_roll", { player: s.turn });
    if (s.players.some((p) => !p.camel)) return t("lastcamel.reveal_due");
    return s.winners.length ? t("finished", { winners: s.winners.join(" & ") }) : t("lastcamel.nobody_wins");
  }

  const advise = () => null;

  return { describe, advise, board, kinds, prompt, standings, editorFields, readEditor, newLine, headline, status, pendingItem, readingWords, legs: false };
};
