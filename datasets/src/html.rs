//! One deal as a self-contained HTML page (`taisim replay RUN DEAL --html FILE`): the deal's
//! log embedded as it is (the same lines `--json` prints), a small viewer that steps through
//! it (every seat's hand, melds, flowers and river, the wild, the tiles left, the action at
//! each step, the settlement at the end), tiles drawn as inline SVG, and, when asked, the
//! search's review of one seat beside its decisions. Nothing is fetched: no fonts, scripts or
//! images from the network.

use crate::log::DealLog;
use crate::review::Review;

/// The id of the `<script>` element that holds the log, line for line.
pub const LOG_ELEMENT_ID: &str = "taisim-log";
/// The id of the `<script>` element that holds the review (`null` without one).
pub const REVIEW_ELEMENT_ID: &str = "taisim-review";

/// The page for `log`, with `review` of a seat when given.
pub fn deal_page(log: &DealLog, review: Option<&Review>) -> String {
    let jsonl = log.to_jsonl();
    let title = format!("taisim deal {} ({})", log.deal_id, log.variant.name());
    let review_json = review.map_or("null".to_string(), Review::to_json);
    // The log's JSON escapes <, > and & inside strings, so no line can close the element;
    // the review is written by this crate with the same escaping of its only strings
    // (tiles, action names).
    debug_assert!(!jsonl.contains('<') && !review_json.contains('<'));
    let mut page = String::with_capacity(jsonl.len() + review_json.len() + TEMPLATE.len() + 256);
    page.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    page.push_str(&escape_html(&title));
    page.push_str("</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<style>\n");
    page.push_str(STYLE);
    page.push_str("</style>\n</head>\n<body>\n");
    page.push_str(BODY);
    page.push_str(&format!(
        "<script type=\"application/x-ndjson\" id=\"{LOG_ELEMENT_ID}\">\n{jsonl}</script>\n"
    ));
    page.push_str(&format!(
        "<script type=\"application/json\" id=\"{REVIEW_ELEMENT_ID}\">{review_json}</script>\n"
    ));
    page.push_str("<script>\n");
    page.push_str(TEMPLATE);
    page.push_str("</script>\n</body>\n</html>\n");
    page
}

/// The text of the `<script>` element `id` in `page` (what a test compares with the log).
pub fn embedded(page: &str, id: &str) -> Option<String> {
    let open = page.find(&format!("id=\"{id}\">"))?;
    let start = open + format!("id=\"{id}\">").len();
    let end = start + page[start..].find("</script>")?;
    let text = &page[start..end];
    Some(text.strip_prefix('\n').unwrap_or(text).to_string())
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const STYLE: &str = r##"
:root { --felt: #1f5e3b; --ink: #1b1b1b; --paper: #fbf8ef; --edge: #c9bd9c; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #eef0ec; color: var(--ink); }
header { padding: 10px 16px; background: #20302a; color: #f4f1e6; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; font-weight: 600; }
nav { display: flex; gap: 8px; align-items: center; padding: 8px 16px; background: #dfe3dc; position: sticky; top: 0; z-index: 2; }
nav button { font: inherit; padding: 3px 10px; border: 1px solid #8a978e; background: #fff; border-radius: 4px; cursor: pointer; }
nav input[type=range] { flex: 1; }
#stepinfo { min-width: 22em; font-weight: 600; }
main { display: grid; grid-template-columns: minmax(640px, 1fr) minmax(300px, 420px); gap: 12px; padding: 12px 16px; }
#table { background: var(--felt); border-radius: 10px; padding: 10px; display: grid; grid-template-columns: 1fr; gap: 8px; }
.seat { background: rgba(255,255,255,0.09); border-radius: 8px; padding: 6px 8px; color: #f2f0e6; }
.seat.acting { outline: 3px solid #ffd54a; }
.seat.reviewed .name::after { content: " · reviewed"; color: #ffd54a; font-weight: 400; }
.seat .name { font-weight: 700; margin-bottom: 4px; display: flex; gap: 10px; align-items: baseline; }
.seat .name .tag { font-weight: 400; font-size: 12px; padding: 0 6px; border-radius: 8px; background: rgba(0,0,0,0.3); }
.row { display: flex; flex-wrap: wrap; gap: 2px; align-items: flex-end; min-height: 34px; }
.row + .row { margin-top: 4px; }
.label { font-size: 11px; opacity: 0.75; width: 52px; flex: none; align-self: center; }
.meld { display: inline-flex; gap: 1px; margin-right: 8px; padding: 1px; border-radius: 3px; background: rgba(0,0,0,0.18); }
svg.tile { display: block; }
svg.tile.small { width: 20px; height: 27px; }
svg.tile.claimed { opacity: 0.35; }
svg.tile.new rect.face { stroke: #ffd54a; stroke-width: 2.5; }
svg.tile.ready rect.face { fill: #ffe9a8; }
#side { display: flex; flex-direction: column; gap: 12px; }
.panel { background: #fff; border-radius: 8px; padding: 10px 12px; box-shadow: 0 1px 2px rgba(0,0,0,0.12); }
.panel h2 { font-size: 14px; margin: 0 0 6px; }
#events div { padding: 1px 0; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
td, th { padding: 2px 6px; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
tr.played td { font-weight: 700; }
tr.search td:first-child::after { content: " ★"; color: #b8860b; }
tr.played td:first-child::before { content: "▶ "; }
.pos { color: #19703a; } .neg { color: #b3261e; }
.muted { color: #777; }
"##;

const BODY: &str = r##"<header><h1 id="title">taisim deal</h1><span id="meta"></span></header>
<nav>
<button id="first" title="first step (Home)">&laquo;</button><button id="prev" title="previous step (left arrow)">&lsaquo;</button>
<input type="range" id="slider" min="0" value="0" aria-label="step">
<button id="next" title="next step (right arrow)">&rsaquo;</button><button id="last" title="last step (End)">&raquo;</button>
<span id="stepinfo"></span>
</nav>
<main>
<section id="table" aria-label="the table"></section>
<section id="side">
<div class="panel"><h2>This step</h2><div id="events"></div></div>
<div class="panel" id="reviewpanel" hidden><h2 id="reviewtitle">Review</h2><div id="review"></div></div>
<div class="panel" id="endpanel" hidden><h2>Settlement</h2><div id="end"></div></div>
</section>
</main>
<noscript><p>The viewer needs JavaScript; the deal's log is in this page's source, one JSON object a line.</p></noscript>
"##;

/// The viewer: reads the embedded log, replays it into one state per step, draws a step.
const TEMPLATE: &str = r##"
"use strict";
const SEATS = ["E", "S", "W", "N"];
// Names in ASCII: a page must read on a machine without CJK fonts (the Chinese names are in
// the tiles' titles, shown on hover where a font has them).
const WIND_NAMES = { E: "East", S: "South", W: "West", N: "North" };
const ORDER = {};
["m", "p", "s"].forEach((s, i) => { for (let r = 1; r <= 9; r++) ORDER[r + s] = i * 9 + r - 1; });
["E", "S", "W", "N", "P", "F", "C"].forEach((h, i) => { ORDER[h] = 27 + i; });
const ZH = { m: "萬", p: "筒", s: "條", E: "東", S: "南", W: "西", N: "北", C: "中", F: "發", P: "白",
  f1: "春", f2: "夏", f3: "秋", f4: "冬", f5: "梅", f6: "蘭", f7: "菊", f8: "竹" };
const COLOR = { m: "#b3261e", p: "#1d4f91", s: "#19703a", C: "#b3261e", F: "#19703a", P: "#1d4f91", f: "#8a4b08" };

function sortTiles(ts) { return ts.slice().sort((a, b) => ORDER[a] - ORDER[b]); }

function tile(name, cls) {
  let big = name, small = "", color = "#1b1b1b", title = name;
  if (/^[1-9][mps]$/.test(name)) { big = name[0]; small = name[1]; color = COLOR[name[1]]; title = name + " " + name[0] + ZH[name[1]]; }
  else if (/^f[1-8]$/.test(name)) { big = name; small = "flower"; color = COLOR.f; title = name + " " + ZH[name]; }
  else if (name === "?") { big = ""; small = ""; title = "face down"; }
  else { color = COLOR[name] || "#1b1b1b"; title = name + " " + (ZH[name] || ""); small = { E: "wind", S: "wind", W: "wind", N: "wind", C: "red", F: "green", P: "white" }[name] || ""; }
  const back = name === "?";
  return `<svg class="tile ${cls || ""}" viewBox="0 0 30 40" width="26" height="35" role="img"><title>${title}</title>` +
    `<rect class="face" x="1" y="1" width="28" height="38" rx="4" fill="${back ? "#3a7d5c" : "#fbf8ef"}" stroke="#c9bd9c" stroke-width="1.5"/>` +
    (name === "P" ? `<rect x="7" y="8" width="16" height="20" rx="2" fill="none" stroke="${color}" stroke-width="2"/>` : "") +
    `<text x="15" y="${small ? 23 : 26}" text-anchor="middle" font-family="Verdana, Arial, sans-serif" font-weight="700" font-size="${big.length > 1 ? 11 : 17}" fill="${color}">${big}</text>` +
    (small ? `<text x="15" y="35" text-anchor="middle" font-family="Verdana, Arial, sans-serif" font-size="${small.length > 1 ? 7 : 9}" fill="${color}">${small}</text>` : "") +
    `</svg>`;
}

function actionText(a) {
  if (!a) return "";
  if (a.type === "chow") return "chow " + a.tiles.join("");
  return a.tile ? a.type.replace(/_/g, " ") + " " + a.tile : a.type.replace(/_/g, " ");
}

const log = document.getElementById("taisim-log").textContent.split("\n").filter(l => l.trim()).map(l => JSON.parse(l));
const review = JSON.parse(document.getElementById("taisim-review").textContent);

function removeTile(hand, t) { const i = hand.indexOf(t); if (i >= 0) hand.splice(i, 1); }

function apply(st, ev) {
  switch (ev.type) {
    case "start":
      st.start = ev; st.left = ev.left;
      for (const s of SEATS) { st.hands[s] = sortTiles(ev.hands[s]); st.flowers[s] = ev.flowers[s].slice(); st.melds[s] = []; st.ready[s] = false; }
      break;
    case "decision": st.decision = ev; break;
    case "draw": st.hands[ev.actor] = sortTiles(st.hands[ev.actor].concat([ev.tile])); st.left = ev.left; st.drawn = { seat: ev.actor, tile: ev.tile }; break;
    case "flower": st.flowers[ev.actor].push(ev.flower); break;
    case "discard":
      removeTile(st.hands[ev.actor], ev.tile);
      st.river.push({ seat: ev.actor, tile: ev.tile, claimed: false, ready: ev.ready });
      if (ev.ready) st.ready[ev.actor] = true;
      break;
    case "chow": case "pung": case "kong": {
      const last = st.river[st.river.length - 1]; if (last) last.claimed = true;
      let skipped = false;
      for (const t of ev.tiles) { if (t === ev.tile && !skipped) { skipped = true; continue; } removeTile(st.hands[ev.actor], t); }
      st.melds[ev.actor].push({ type: ev.type, tiles: ev.tiles, from: ev.from });
      break;
    }
    case "concealed_kong":
      for (let k = 0; k < 4; k++) removeTile(st.hands[ev.actor], ev.tile);
      st.melds[ev.actor].push({ type: "concealed_kong", tiles: [ev.tile, ev.tile, ev.tile, ev.tile], from: ev.actor });
      break;
    case "added_kong": {
      removeTile(st.hands[ev.actor], ev.tile);
      const m = st.melds[ev.actor].find(m => m.type === "pung" && m.tiles[0] === ev.tile);
      if (m) { m.type = "added_kong"; m.tiles = m.tiles.concat([ev.tile]); }
      break;
    }
    case "end": st.end = ev; break;
  }
}

// One state a step: after the start, then after each decision and what followed it.
const steps = [];
{
  let st = { hands: {}, flowers: {}, melds: {}, ready: {}, river: [], left: 0, decision: null, events: [], drawn: null, end: null };
  for (const ev of log) {
    if (ev.type === "decision" && (steps.length > 0 || st.start)) {
      steps.push(structuredClone(st));
      st.events = []; st.drawn = null;
    }
    apply(st, ev);
    if (ev.type !== "decision") st.events.push(ev);
  }
  steps.push(structuredClone(st));
}

const start = log[0];
// 64-bit numbers as written (a JavaScript number keeps 53 bits).
const rawStart = document.getElementById("taisim-log").textContent.trim().split("\n")[0];
const exact = key => (new RegExp(`"${key}":(\\d+)`).exec(rawStart) || [])[1];
document.getElementById("title").textContent = `taisim deal ${exact("deal")} · ${start.variant}`;
document.getElementById("meta").textContent =
  `seed ${exact("seed")} · round ${start.round_wind} · dealer ${start.dealer}` + (start.streak ? ` (streak ${start.streak})` : "") +
  (start.wild ? ` · wild ${start.wild} (indicator ${start.wild_indicator})` : "") + ` · stakes ${start.base} + ${start.per_tai}/tai`;
if (review) {
  document.getElementById("reviewpanel").hidden = false;
  document.getElementById("reviewtitle").textContent = `Review of seat ${review.seat} (${review.search}, every legal action estimated)`;
}

function eventText(ev) {
  switch (ev.type) {
    case "start": return "the tiles are dealt and the flowers replaced";
    case "draw": return `${ev.actor} draws ${ev.tile} (${ev.left} left)`;
    case "flower": return `${ev.actor} shows ${ev.flower} and draws a replacement`;
    case "discard": return `${ev.actor} discards ${ev.tile}` + (ev.ready ? " and declares ready" : "");
    case "chow": case "pung": case "kong": return `${ev.actor} ${ev.type}s ${ev.tile} from ${ev.from}: ${ev.tiles.join(" ")}`;
    case "concealed_kong": return `${ev.actor} lays a kong of ${ev.tile} face down`;
    case "added_kong": return `${ev.actor} adds ${ev.tile} to its pung`;
    case "end": return `the deal ends: ${ev.outcome.replace(/_/g, " ")}` + (ev.winners.length ? `, won by ${ev.winners.join(", ")}` : "");
  }
  return ev.type;
}

function drawSeat(st, s, acting) {
  const el = document.createElement("div");
  el.className = "seat" + (acting === s ? " acting" : "") + (review && review.seat === s ? " reviewed" : "");
  const dealer = start.dealer === s ? `<span class="tag">dealer</span>` : "";
  const ready = st.ready[s] ? `<span class="tag">ready</span>` : "";
  const won = st.end && st.end.winners.includes(s) ? `<span class="tag">wins</span>` : "";
  const pay = st.end ? `<span class="tag">${st.end.payments[s] > 0 ? "+" : ""}${st.end.payments[s]}</span>` : "";
  const drawn = st.drawn && st.drawn.seat === s ? st.drawn.tile : null;
  let marked = false;
  let hand = st.hands[s].map(t => { const cls = (!marked && t === drawn) ? (marked = true, "new") : ""; return tile(t, cls); }).join("");
  // A winner on a discard or a robbed kong shows the winning tile beside its hand.
  if (st.end && st.end.winners.includes(s) && st.end.outcome === "discard" && st.end.win_tile)
    hand += `<span style="margin-left:10px" title="the winning tile">${tile(st.end.win_tile, "new")}</span>`;
  const melds = st.melds[s].map(m => `<span class="meld" title="${m.type.replace(/_/g, " ")} from ${m.from}">${m.tiles.map(t => tile(t, "small")).join("")}</span>`).join("");
  const flowers = st.flowers[s].map(f => tile(f, "small")).join("");
  const river = st.river.filter(d => d.seat === s).map(d => tile(d.tile, "small" + (d.claimed ? " claimed" : "") + (d.ready ? " ready" : ""))).join("");
  el.innerHTML = `<div class="name">${WIND_NAMES[s]} ${dealer}${ready}${won}${pay}</div>` +
    `<div class="row"><span class="label">hand ${st.hands[s].length}</span>${hand}</div>` +
    `<div class="row"><span class="label">melds</span>${melds || '<span class="muted">none</span>'}<span class="label" style="margin-left:12px">flowers</span>${flowers || '<span class="muted">none</span>'}</div>` +
    `<div class="row"><span class="label">river</span>${river}</div>`;
  return el;
}

function reviewHtml(step) {
  if (!review) return "";
  const d = review.decisions.find(d => d.step === step);
  if (!d) {
    const list = review.decisions.map(d => `step ${d.step}: played ${actionText(d.played)}` + (actionText(d.search_plays) !== actionText(d.played) ? `; search plays ${actionText(d.search_plays)}` : "")).join("<br>");
    return `<div class="muted">Not a decision of seat ${review.seat} with a choice. Its decisions:</div><div>${list}</div>`;
  }
  if (!d.estimates.length) return `played ${actionText(d.played)}: a win taken without searching (wins=take, or a flower robbed before the first turn)`;
  // The figures ★ was chosen on, where the agent's own search raced only its prior's
  // candidates on determinizations of its own (the left columns search every action).
  const apart = d.decided_apart;
  const cells = e => {
    const mean = e.mean === null ? "–" : e.mean.toFixed(3);
    return `<td class="${e.mean > 0 ? "pos" : e.mean < 0 ? "neg" : ""}">${mean}</td><td>${e.std_error === null ? "–" : e.std_error.toFixed(3)}</td><td>${e.rollouts}</td>`;
  };
  const rows = d.estimates.map(e => {
    const cls = [JSON.stringify(e.action) === JSON.stringify(d.played) ? "played" : "", JSON.stringify(e.action) === JSON.stringify(d.search_plays) ? "search" : ""].join(" ");
    const decided = d.decided_on.find(o => JSON.stringify(o.action) === JSON.stringify(e.action));
    const own = !apart ? "" : decided ? cells(decided) : `<td class="muted">–</td><td></td><td></td>`;
    return `<tr class="${cls}"><td>${actionText(e.action)}</td>${cells(e)}${own}</tr>`;
  }).join("");
  const ownHead = apart ? `<th>as decided</th><th>s.e.</th><th>rollouts</th>` : "";
  return `<div>hand ${d.hand.join(" ")}${d.offer ? `, answering ${d.offer}` : ""}</div>` +
    `<table><tr><th>action</th><th>mean pts</th><th>s.e.</th><th>rollouts</th>${ownHead}</tr>${rows}</table>` +
    `<div class="muted">▶ played · ★ what ${review.search} plays (its default, ${review.default_by}'s choice, unless another of the actions its prior keeps beats it by its margin${apart ? ", on the figures of its own search: as decided, which races only its prior's candidates on determinizations of its own" : ""})</div>`;
}

function endHtml(e) {
  let h = `<div><b>${e.outcome.replace(/_/g, " ")}</b>` + (e.winners.length ? ` — won by ${e.winners.join(", ")}` : "") + (e.payer ? `, paid by ${e.payer}` : "") + (e.win_tile ? ` on ${e.win_tile}` : "") + `</div>`;
  for (const w of e.wins) {
    h += `<div style="margin-top:6px"><b>${w.seat}</b>: ${w.tai} tai` + (w.dealer_tai ? ` (+${w.dealer_tai} dealer)` : "") + (w.points && w.hu ? `, ${w.hu} 胡, ${w.points} points` : "") + `</div><table>` +
      w.patterns.map(p => `<tr><td>${p.id} <span class="muted">${p.name}</span></td><td>${p.tai}</td></tr>`).join("") + `</table>`;
  }
  h += `<table style="margin-top:6px"><tr>${SEATS.map(s => `<th>${s}</th>`).join("")}</tr><tr>${SEATS.map(s => `<td class="${e.payments[s] > 0 ? "pos" : e.payments[s] < 0 ? "neg" : ""}">${e.payments[s]}</td>`).join("")}</tr></table>`;
  if (e.responsible) h += `<div>${e.responsible} pays for everyone (全包)</div>`;
  return h;
}

const slider = document.getElementById("slider");
slider.max = steps.length - 1;
let current = 0;

function show(i) {
  current = Math.max(0, Math.min(steps.length - 1, i));
  slider.value = current;
  const st = steps[current];
  const d = st.decision;
  const acting = current > 0 && d ? d.actor : null;
  document.getElementById("stepinfo").textContent = current === 0 ? `step 0 of ${steps.length - 1}: the deal` :
    `step ${current} of ${steps.length - 1}: ${d.actor} ${actionText(d.action)}` + (st.end ? " · the end" : "");
  const table = document.getElementById("table");
  table.replaceChildren(...SEATS.map(s => drawSeat(st, s, acting)));
  const info = document.createElement("div");
  info.className = "seat";
  info.innerHTML = `<div class="row"><span class="label">wall</span><b>${st.left}</b>&nbsp;tiles left` +
    (start.wild_indicator ? `<span class="label" style="margin-left:16px">wild</span>${tile(start.wild_indicator, "small")}&nbsp;indicator → ${tile(start.wild, "small")}` : "") + `</div>`;
  table.prepend(info);
  document.getElementById("events").innerHTML = (d && current > 0 ? `<div><b>${d.actor}: ${actionText(d.action)}</b></div>` : "") +
    st.events.map(ev => `<div>${eventText(ev)}</div>`).join("");
  if (review) document.getElementById("review").innerHTML = reviewHtml(d && current > 0 ? d.step : -1);
  document.getElementById("endpanel").hidden = !st.end;
  if (st.end) document.getElementById("end").innerHTML = endHtml(st.end);
  history.replaceState(null, "", "#step=" + current);
}

document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(current - 1);
document.getElementById("next").onclick = () => show(current + 1);
document.getElementById("last").onclick = () => show(steps.length - 1);
slider.oninput = () => show(+slider.value);
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") show(current + 1);
  else if (e.key === "ArrowLeft") show(current - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(steps.length - 1);
});
const m = /#(?:step=(\d+)|(last))/.exec(location.hash);
show(m ? (m[2] ? steps.length - 1 : +m[1]) : 0);
"##;
