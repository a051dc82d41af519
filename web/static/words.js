// A page's words, shared by the dashboard and the setup pages: a sentence by its key, numbers
// as the page's language writes them, and what the table says in English beside its key and
// values (a reason, a notice, an error) as a sentence of that language.
"use strict";

window.camelWords = (lang, W) => {
  function t(key, params = {}) {
    const text = W[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  }

  // Numbers as this language writes them (a decimal comma in French), places as ordinals.
  const numbers = new Intl.NumberFormat(lang);
  const number = (n) => numbers.format(n);
  const decimal = (n, digits) => new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
  const percent = (p) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: p < 0.1 && p > 0 ? 1 : 0 }).format(p);
  const ordinals = new Intl.PluralRules(lang, { type: "ordinal" });
  const ordinal = (n) => t("place." + ordinals.select(n), { n: number(n) });
  const colour = (c) => (c ? t("colour." + c) : t("hidden"));
  // A camel by its colour, or by both of its colours (The Last Camel's "red-blue": "red/blue").
  const camel = (c) => c.split("-").map(colour).join("/");
  // A game by its name ("camelup-2018": "Camel Up (second edition, 2018)"), or as given when
  // this page knows no game of that id.
  const gameName = (g) => W["game." + g] ?? g;

  // The table's English list ("grey, white", "blue and green") as this language lists it.
  const lists = new Intl.ListFormat(lang, { type: "conjunction" });
  const list = (text, each) => lists.format(String(text).split(/, | and /).map(each));
  // Things the page itself names, listed as this language lists them; camels ("blue",
  // "red-blue") by their colours.
  const listOf = (items) => lists.format(items);
  const camelList = (camels) => listOf(camels.map(camel));

  // A panel button as its label reads: a colour in this language, the others as printed.
  function buttonName(label) {
    const name = label.toLowerCase();
    return ("colour." + name in W ? colour(name) : label).toUpperCase();
  }

  // The sentence of `words` ({key, params}), each value written as this page writes it (a
  // `reason` is a refusal within the refusal), or `text` when this page has none.
  function worded(words, text) {
    if (!words || !(words.key in W)) return text;
    const params = {};
    for (const [k, v] of Object.entries(words.params)) {
      const kind = k.replace(/\d$/, "");
      if (kind === "camel" || kind === "die") params[k] = camel(v);
      else if (kind === "camels" || kind === "dice") params[k] = list(v, camel);
      else if (kind === "markers") params[k] = list(v, (m) => number(Number(m)));
      else if (kind === "game") params[k] = gameName(v);
      else if (kind === "pile") params[k] = t("pile." + v);
      else if (kind === "figure") params[k] = t("figure." + v);
      else if (kind === "tile") params[k] = t("tile." + v.replace(" ", "_"));
      else if (kind === "place") params[k] = ordinal(v);
      else if (kind === "confidence") params[k] = percent(v / 100);
      else if (["first", "second", "face"].includes(kind)) params[k] = t("face." + v);
      else if (kind === "button") params[k] = buttonName(v);
      else if (kind === "cards") params[k] = v.replace(/[a-z]+(?= \+)/g, colour);
      else if (kind === "reason") params[k] = typeof v === "string" ? v : worded(v, v.key);
      else params[k] = typeof v === "number" ? number(v) : v;
    }
    return t(words.key, params);
  }

  return { t, number, decimal, percent, ordinal, colour, camelName: camel, camelList, listOf,
           gameName, worded };
};
