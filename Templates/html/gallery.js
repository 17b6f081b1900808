// Vitrine gallery. Everything here is an improvement on pages that work without it:
// an image that fails to load gives way to the striped placeholder behind it, and the index gets a search
// box over a JSON index split into small shards (search/*.js), loaded as scripts so it works from file://.
"use strict";

const markBroken = (image) => {
  image.classList.add("broken");
  image.parentElement?.classList.add("placeholder");
};
document.addEventListener("error", (event) => {
  if (event.target instanceof HTMLImageElement) markBroken(event.target);
}, true);
// Images that failed before this script ran (it is deferred) are found by their missing size.
const markFailed = () => {
  for (const image of document.images) {
    if (image.complete && image.naturalWidth === 0 && image.currentSrc) markBroken(image);
  }
};
document.addEventListener("DOMContentLoaded", markFailed);
window.addEventListener("load", markFailed);

const Vitrine = (() => {
  const shards = new Map();
  const waiting = new Map();
  const resolvers = new Map();
  let keys = null;
  let root = "search/";

  // The same folding and words as SearchIndex.words in Swift: compatibility decomposition (NFKD), combining
  // accents and kana voicing marks dropped, lower case, letters that do not decompose spelt out (LatinLetters) and
  // a final sigma as sigma; then runs of letters, digits and marks of any script, Chinese and Japanese cut into
  // overlapping pairs of characters.
  const spelt = { "ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "œ": "oe", "ı": "i",
    "ħ": "h", "ŧ": "t", "ŀ": "l", "ς": "σ" };
  const fold = (text) => text.normalize("NFKD").replace(/[\u0300-\u036f\u3099\u309a]/g, "").toLowerCase()
    .replace(/[øæßłđðþœıħŧŀς]/g, (letter) => spelt[letter]);
  const cjk = "\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\u{20000}-\\u{3134f}";
  const parts = new RegExp(`[${cjk}]+|[^${cjk}]+`, "gu");
  const startsCJK = new RegExp(`^[${cjk}]`, "u");
  const words = (text) => {
    const found = [];
    for (const run of fold(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
      for (const part of run.match(parts)) {
        const letters = [...part];
        if (!startsCJK.test(part) || letters.length === 1) {
          found.push(part);
        } else {
          for (let index = 0; index + 1 < letters.length; index++) found.push(letters[index] + letters[index + 1]);
        }
      }
    }
    return found;
  };
  // A shard's file: its key, "$" as "-end", a key beyond ASCII letters and digits as its code points in hex
  // (SearchIndex.fileStem in Swift).
  const fileStem = (key) => {
    const ending = key.endsWith("$");
    const bare = ending ? key.slice(0, -1) : key;
    const stem = /^[a-z0-9]*$/.test(bare) ? bare :
      [...bare].map((letter) => "_" + letter.codePointAt(0).toString(16)).join("");
    return stem + (ending ? "-end" : "");
  };

  const load = (name) => {
    if (shards.has(name)) return Promise.resolve(shards.get(name));
    if (!waiting.has(name)) {
      waiting.set(name, new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = root + fileStem(name) + ".js";
        script.onerror = () => reject(new Error("cannot load " + script.src));
        script.dataset.shard = name;
        resolvers.set(name, resolve);
        document.head.append(script);
      }));
    }
    return waiting.get(name);
  };

  // The shards to read for one query word: the longest shard key that starts the word, or, for a word
  // shorter than the keys, every key that starts with it (a few at most).
  const shardsFor = (word) => {
    let best = null;
    for (const key of Object.keys(keys)) {
      const bare = key.endsWith("$") ? key.slice(0, -1) : key;
      const matches = key.endsWith("$") ? bare === word : word.startsWith(bare);
      if (matches && (best === null || bare.length > best.length)) best = key;
    }
    if (best !== null) return [best];
    return Object.keys(keys).filter((key) => key.startsWith(word));
  };
  const countOf = (names) => names.reduce((sum, name) => sum + keys[name], 0);

  const card = (entry) => {
    const [title, maker, page, thumbnail] = entry;
    const item = document.createElement("li");
    item.className = "card";
    const link = document.createElement("a");
    link.className = "card-link";
    link.href = "objects/" + page;
    const figure = document.createElement("figure");
    const frame = document.createElement("div");
    frame.className = "frame";
    if (thumbnail) {
      const image = document.createElement("img");
      image.src = thumbnail;
      image.alt = maker ? title + ", " + maker : title;
      image.loading = "lazy";
      frame.append(image);
    } else {
      frame.classList.add("placeholder");
      frame.setAttribute("role", "img");
      frame.setAttribute("aria-label", "No image: " + title);
    }
    const caption = document.createElement("figcaption");
    const name = document.createElement("span");
    name.className = "title";
    name.textContent = title;
    const by = document.createElement("span");
    by.className = "date";
    by.textContent = maker;
    caption.append(name, by);
    figure.append(frame, caption);
    link.append(figure);
    item.append(link);
    return item;
  };

  // The objects that have every term, through the rarest term's shard: the smallest download, and the most complete
  // when lists are cut. An object's number is its words and one word as well (SK-C-5 as skc5).
  const find = async (terms) => {
    let names = null;
    let broad = false;
    for (const term of terms) {
      const candidates = shardsFor(term);
      if (candidates.length === 0) return { found: [], broad: false, cut: false };
      if (candidates.length > 8) broad = true;
      if (candidates.length <= 8 && (names === null || countOf(candidates) < countOf(names))) names = candidates;
    }
    if (names === null) return { found: [], broad, cut: false };
    const lists = await Promise.all(names.map(load));
    const seen = new Set();
    const found = [];
    for (const list of lists) {
      for (const entry of list) {
        if (seen.has(entry[2])) continue;
        const [title, maker, , , number, date] = entry;
        const numberWords = words(number ?? "");
        const haystack = words(title + " " + maker + " " + (date ?? "") + " " + (number ?? "")).join(" ") + " " +
          numberWords.join("");
        if (terms.every((term) => haystack.includes(term))) {
          seen.add(entry[2]);
          found.push(entry);
        }
      }
    }
    return { found, broad: false, cut: lists.some((list, index) => list.length < keys[names[index]]) };
  };

  const search = async (query, view) => {
    const terms = words(query);
    if (terms.length === 0) {
      view.results.hidden = true;
      view.browse.hidden = false;
      view.status.textContent = query.trim() === "" ? "" : "Nothing found.";
      return;
    }
    // A query without spaces (an object number, SK-A-1505) is looked up whole first, then word by word.
    const whole = terms.length > 1 && !/\s/.test(query.trim()) ? await find([terms.join("")]) : null;
    const { found, broad, cut } = whole && whole.found.length > 0 ? whole : await find(terms);
    if (view.input.value !== query) return; // a newer query is under way
    if (found.length === 0) {
      view.status.textContent = broad ? "Type a few more letters." : "Nothing found.";
      view.results.hidden = true;
      view.browse.hidden = false;
      return;
    }
    const list = view.results.querySelector("ul");
    list.replaceChildren(...found.slice(0, 200).map(card));
    view.status.textContent = (found.length > 200 ? `${found.length} found; the first 200 are shown.` :
      `${found.length} found.`) +
      (cut ? " This word is very common: add another to find the rest." : "");
    view.results.hidden = false;
    view.browse.hidden = true;
  };

  const start = () => {
    const form = document.querySelector("form.search");
    if (!form) return;
    root = form.dataset.searchRoot || root;
    const view = {
      form,
      input: form.querySelector("input"),
      status: form.querySelector(".search-status"),
      results: document.getElementById("results"),
      browse: document.getElementById("browse"),
    };
    const script = document.createElement("script");
    script.src = root + "manifest.js";
    script.onload = () => {
      form.hidden = false;
      let timer = 0;
      view.input.addEventListener("input", () => {
        clearTimeout(timer);
        timer = setTimeout(() => search(view.input.value, view).catch((error) => {
          view.status.textContent = "Search is unavailable: " + error.message;
        }), 150);
      });
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        search(view.input.value, view);
      });
    };
    document.head.append(script);
  };

  document.addEventListener("DOMContentLoaded", start);

  return {
    manifest(list) { keys = list; },
    shard(name, entries) {
      shards.set(name, entries);
      resolvers.get(name)?.(entries);
      resolvers.delete(name);
    },
  };
})();
